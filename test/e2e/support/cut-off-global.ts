/**
 * vitest globalSetup for the E2E run: a fresh cut-off state file for this run (its path reaches the
 * test workers through the environment), and at the end a line per browser that was cut off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readState, STATE_ENV, writeState } from './cut-off-state';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'jawad-e2e-'));
  process.env[STATE_ENV] = join(dir, 'cut-off.json');
  writeState({ markAt: Date.now(), browsers: {} });
  return () => {
    for (const [browser, record] of Object.entries(readState()?.browsers ?? {})) {
      if (record?.cut) console.log(`\n✖ ${browser}'s E2E suite was cut off because ${record.cut}; its remaining tests failed without running.`);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
