/**
 * Real web applications from Debian's packages, installed by the test command itself: apt as
 * root, once (a package already installed is not touched again).
 */
import { execFileSync, spawnSync } from 'node:child_process';

function installed(name: string): boolean {
  const query = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return query.status === 0 && query.stdout.includes('install ok installed');
}

/** apt-get, waiting for another apt at work (a daily update, another test run) rather than failing on its lock. */
const APT = ['apt-get', '-o', 'DPkg::Lock::Timeout=300'] as const;

/**
 * Installs what is missing of `packages` with apt-get (no recommends); throws with the command when
 * not root. `debconf`: answers to the packages' install questions (debconf-set-selections lines),
 * given to debconf first when anything is to be installed.
 */
export function ensurePackages(packages: readonly string[], debconf = ''): void {
  const missing = packages.filter((name) => !installed(name));
  if (missing.length === 0) return;
  const command = [...APT, 'install', '-y', '--no-install-recommends', ...missing];
  if (process.getuid?.() !== 0) throw new Error(`These tests need ${missing.join(', ')}: run \`sudo ${command.join(' ')}\` once, then the tests again.`);
  if (debconf) execFileSync('debconf-set-selections', [], { input: debconf, stdio: ['pipe', 'pipe', 'pipe'] });
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => execFileSync(command[0]!, command.slice(1), { env, stdio: 'pipe', timeout: 600_000 });
  try {
    install();
  } catch {
    // A stale package list (a fresh container) is the usual reason: refresh it once and try again.
    execFileSync(APT[0], [...APT.slice(1), 'update'], { env, stdio: 'pipe', timeout: 300_000 });
    install();
  }
}

/**
 * Debian's own Python, whatever other Python is first on the PATH: the Python applications the
 * tests install from Debian's packages (Jupyter Notebook, Django) are packages of it.
 */
export const DEBIAN_PYTHON = '/usr/bin/python3';
