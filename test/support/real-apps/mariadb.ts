/**
 * A MariaDB server of its own for a real application (Debian's `mariadb-server`): a data folder
 * and a socket in the application's temporary folder, no network, no grant tables (the test's
 * root user needs no password, and any user name logs in).
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface MariaDb {
  socket: string;
  /** Rows of a query on `database`, each as column → text. */
  query(sql: string): Array<Record<string, string>>;
  /** Runs SQL statements (a schema, seed rows). */
  run(sql: string): void;
  stop(): Promise<void>;
}

export async function startMariaDb(dir: string, database: string): Promise<MariaDb> {
  const data = join(dir, 'db');
  const socket = join(dir, 'mysqld.sock');
  execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=root', '--skip-test-db', '--auth-root-authentication-method=normal'], { stdio: 'pipe', timeout: 120_000 });
  const server = spawn('mariadbd', ['--no-defaults', `--datadir=${data}`, `--socket=${socket}`, '--skip-networking', '--skip-grant-tables', '--user=root', `--pid-file=${join(dir, 'mysqld.pid')}`, '--innodb-buffer-pool-size=64M'], { stdio: 'ignore' });
  const client = (args: string[], input?: string) => execFileSync('mariadb', ['--no-defaults', `--socket=${socket}`, ...args], { encoding: 'utf8', stdio: 'pipe', ...(input === undefined ? {} : { input }) });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`mariadbd exited with ${server.exitCode}`);
    try {
      client(['-e', `CREATE DATABASE IF NOT EXISTS \`${database}\``]);
      break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`MariaDB did not answer within 60 s: ${String(error)}`);
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  return {
    socket,
    query(sql) {
      // Batch mode: a row a line, tab-separated, with newlines, tabs and backslashes in values escaped.
      const [header, ...rows] = client(['--batch', database, '-e', sql]).split('\n').filter((line) => line !== '');
      const columns = header?.split('\t') ?? [];
      const unescape = (value: string) => value.replace(/\\(.)/g, (_, char: string) => ({ n: '\n', t: '\t', '0': '\0' })[char] ?? char);
      return rows.map((row) => Object.fromEntries(row.split('\t').map((value, i) => [columns[i] ?? String(i), unescape(value)])));
    },
    run(sql) {
      client([database], sql);
    },
    stop: () =>
      new Promise((done) => {
        if (server.exitCode !== null) return done();
        server.once('exit', () => done());
        server.kill('SIGTERM');
      }),
  };
}
