/** The built Chromium extension the bench measures, and a guard against it changing mid-run. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function ensureBuild(root: string, dist: string, force: boolean, log: (line: string) => void): void {
  if (!force && existsSync(join(dist, 'manifest.json'))) return;
  log(force ? 'Building (--build)…' : `${dist} is missing: building…`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status ?? build.signal})`);
}

/**
 * A cheap fingerprint of a build folder (paths, sizes, times): any rebuild changes it. Others
 * rebuild dist/ while they work, and the browser loads the page agent from dist/ on every snapshot,
 * so a rebuild mid-run would mix two builds in one set of figures.
 */
export function distStamp(dir: string): string {
  const hash = createHash('sha256');
  try {
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      const stat = statSync(join(dir, file));
      hash.update(`${file}:${stat.size}:${stat.mtimeMs}\n`);
    }
  } catch {
    hash.update(`unreadable at ${Date.now()}`); // mid-rebuild: files come and go
  }
  return hash.digest('hex');
}
