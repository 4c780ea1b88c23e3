// Makes sure Debian's Chromium and Firefox ESR are installed: the E2E tests and `npm start` drive
// them. As root it installs them with apt; otherwise it says exactly what to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/lib/firefox-esr/firefox-esr';

const BROWSERS = [
  { path: CHROMIUM, apt: 'chromium' },
  { path: FIREFOX, apt: 'firefox-esr' },
];
/** A virtual display, for `npm start` on a machine without one. */
export const XVFB = { path: '/usr/bin/xvfb-run', apt: 'xvfb' };

export function ensureBrowsers(extra = []) {
  const NEEDED = [...BROWSERS, ...extra];
  const missing = NEEDED.filter((browser) => !existsSync(browser.path)).map((browser) => browser.apt);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || spawnSync('which', ['apt-get']).status !== 0) {
    console.error(`Jawad needs ${missing.join(' and ')}. Install them with:\n  sudo ${command}`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(', ')} with apt (once)…`);
  // Another apt at work (a daily update, a test run installing an app) is waited for, not failed on.
  const apt = 'apt-get -o DPkg::Lock::Timeout=300';
  execFileSync('sh', ['-c', `{ ${apt} update && DEBIAN_FRONTEND=noninteractive ${apt} install -y ${missing.join(' ')}; } > /tmp/jawad-apt.log 2>&1`], { stdio: 'inherit' });
  const stillMissing = NEEDED.filter((browser) => !existsSync(browser.path));
  if (stillMissing.length > 0) {
    console.error(`apt did not provide ${stillMissing.map((b) => b.path).join(', ')}; see /tmp/jawad-apt.log`);
    process.exit(1);
  }
}
