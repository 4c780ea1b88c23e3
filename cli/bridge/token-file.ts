/**
 * Where `jawad mcp` keeps the token Jawad gave it, so a restarted server re-pairs without asking
 * the user again: one file per client name, readable by its owner only.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

function tokenPath(name: string, env: NodeJS.ProcessEnv): string {
  const base = env.JAWAD_CONFIG_DIR ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'jawad');
  return join(base, `bridge-${name.replace(/[^A-Za-z0-9_-]/g, '_')}.token`);
}

export async function readToken(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const text = await readFile(tokenPath(name, env), 'utf8').catch(() => '');
  return /^[0-9a-f]{64}$/.test(text.trim()) ? text.trim() : undefined;
}

export async function saveToken(name: string, token: string, env: NodeJS.ProcessEnv): Promise<void> {
  const path = tokenPath(name, env);
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  await writeFile(path, token, { mode: 0o600 });
}
