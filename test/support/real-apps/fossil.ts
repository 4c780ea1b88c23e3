/**
 * Fossil (Debian's fossil, 2.21), the version control system the SQLite project keeps its code,
 * tickets and wiki in, served by its own web interface (`fossil server`) from a fresh repository
 * per start: two check-ins, three tickets and a wiki page, an administrator and a developer. Every
 * page the tasks use is Fossil's own: its login with a captcha for visitors, the ticket form that
 * shows its Submit button only after a preview, the ticket report and editor, the wiki editor (a
 * script-built page of tabs that saves by fetch), the user editor's grid of capabilities, and the
 * timeline. Its state is the repository, read with Fossil's own SQL shell.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlText, type RealApp } from './app-task';
import { ensurePackages } from './debian';
import { freePort } from '../ports';
import { startServerProcess, waitUntilServing } from './server-process';

export const FOSSIL_ADMIN = { user: 'admin', password: 'Jawad-fossil-pass-5' };

/** The check-ins the repository starts with, oldest first: the timeline lists the last on top. */
export const CHECK_INS = [
  { user: 'admin', comment: 'Add the README and the export script', files: { 'README.md': '# Ledger\n\nA small bookkeeping tool.\n', 'export.py': 'def export(rows):\n    return rows[:-1]\n' } },
  { user: 'mara', comment: 'Fix the off-by-one that dropped the last row of the CSV export', files: { 'export.py': 'def export(rows):\n    return rows\n' } },
];

/** The tickets it starts with, all open. */
export const TICKETS = [
  { title: 'Export button crashes the app', type: 'Code_Defect', severity: 'Critical' },
  { title: 'Dark mode for the settings page', type: 'Feature_Request', severity: 'Minor' },
  { title: 'Typo in the install guide', type: 'Documentation', severity: 'Cosmetic' },
];

export interface Fossil extends RealApp {
  /** Rows of a query on the repository's database, each an object of its columns. */
  query(sql: string): Array<Record<string, unknown>>;
  /** A wiki page's latest text (`html`: as Fossil renders it for its markup), or undefined when there is no such page. */
  wikiPage(name: string, options?: { html: boolean }): string | undefined;
  /** A user's capability letters (`v` for a developer), or undefined when there is no such user. */
  capabilities(user: string): string | undefined;
  /** Whether Fossil's login page takes this user and password (it sends a login cookie and on). */
  logsIn(user: string, password: string): Promise<boolean>;
}

export async function startFossil(): Promise<Fossil> {
  ensurePackages(['fossil']);
  const dir = mkdtempSync(join(tmpdir(), 'jawad-fossil-'));
  const repo = join(dir, 'ledger.fossil');
  const checkout = join(dir, 'checkout');
  mkdirSync(checkout);
  // Fossil keeps its own settings in $HOME: the run's folder, not the user's.
  const env = { ...process.env, HOME: dir, USER: FOSSIL_ADMIN.user };
  const fossil = (args: string[], input?: string) => execFileSync('fossil', args, { cwd: checkout, env, input, encoding: 'utf8', stdio: 'pipe', timeout: 60_000 });

  fossil(['init', repo, '--admin-user', FOSSIL_ADMIN.user]);
  fossil(['user', 'password', FOSSIL_ADMIN.user, FOSSIL_ADMIN.password, '-R', repo]);
  fossil(['user', 'new', 'mara', 'mara@example.com', 'Mara-pass-7', '-R', repo]);
  fossil(['user', 'capabilities', 'mara', 'v', '-R', repo]);
  fossil(['open', repo, '--workdir', checkout]);
  for (const { user, comment, files } of CHECK_INS) {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(checkout, name), text);
    fossil(['addremove']);
    fossil(['commit', '-m', comment, '--user-override', user, '--no-warnings']);
  }
  fossil(['close']);
  for (const { title, type, severity } of TICKETS) fossil(['ticket', 'add', 'title', title, 'type', type, 'severity', severity, 'status', 'Open', '-R', repo]);
  writeFileSync(join(dir, 'home.md'), 'Welcome to **Ledger**. See the tickets for what is planned.\n');
  fossil(['wiki', 'create', 'Home', join(dir, 'home.md'), '--mimetype', 'text/x-markdown', '-R', repo]);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess('fossil', ['server', '--localhost', '--port', String(port), repo], { HOME: dir, USER: FOSSIL_ADMIN.user }, (child) => waitUntilServing(`${url}/login`, child, 30_000));
  const query = (sql: string) => JSON.parse(fossil(['sql', '-R', repo], `.mode json\n${sql};\n`) || '[]') as Array<Record<string, unknown>>;
  return {
    url,
    query,
    wikiPage(name, options) {
      try {
        return fossil(['wiki', 'export', name, ...(options?.html ? ['--html'] : []), '-R', repo]);
      } catch {
        return undefined;
      }
    },
    capabilities: (user) => query(`select cap from user where login = ${sqlText(user)}`)[0]?.cap as string | undefined,
    async logsIn(user, password) {
      const response = await fetch(`${url}/login`, { method: 'POST', body: new URLSearchParams({ u: user, p: password, in: 'Login' }), redirect: 'manual' });
      return response.status === 302 && response.headers.getSetCookie().some((cookie) => cookie.startsWith('fossil-'));
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
