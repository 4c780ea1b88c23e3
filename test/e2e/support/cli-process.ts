/** The `jawad` command run as a user runs it: its own process, stdout read as JSON lines. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const RUN_TIMEOUT_MS = 90_000;

export interface CliRun {
  code: number | null;
  lines: Array<Record<string, unknown>>;
  stderr: string;
}

/** Runs a command in the checkout and collects stdout as JSON lines. */
export function runCli(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), RUN_TIMEOUT_MS - 5_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const lines = stdout.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as Record<string, unknown>);
        done({ code, lines, stderr });
      } catch (error) {
        fail(new Error(`stdout is not JSON lines (${String(error)}):\n${stdout}\nstderr:\n${stderr}`));
      }
    });
  });
}
