/**
 * Adminer (Debian's package) on PHP's built-in server, managing a fresh SQLite database per start:
 * a shop's customers and orders. Adminer refuses a database without a password, so it runs with
 * its own login-password-less plugin, as its documentation tells SQLite users to. The database
 * file answers what happened (through the sqlite3 command-line shell).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { ensurePackages } from './debian';
import { startPhpServer } from './php-server';
import { SHOP_ROWS } from './shop';

const ADMINER = '/usr/share/adminer';
export const ADMINER_PASSWORD = 'Jawad-test-pass-2';

export interface Adminer extends RealApp {
  /** The database file, as typed in Adminer's login form. */
  database: string;
  /** Rows of a query on the database, each as column → text. */
  query(sql: string): Array<Record<string, string>>;
}

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, city TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL, status TEXT);
${SHOP_ROWS}`;

const index = (passwordHash: string) => `<?php
function adminer_object() {
  include_once '${ADMINER}/plugins/plugin.php';
  include_once '${ADMINER}/plugins/login-password-less.php';
  return new AdminerPlugin([new AdminerLoginPasswordLess('${passwordHash}')]);
}
include '${ADMINER}/adminer.php';
`;

export async function startAdminer(): Promise<Adminer> {
  ensurePackages(['adminer', 'php-sqlite3', 'php-cli', 'sqlite3']);
  const dir = mkdtempSync(join(tmpdir(), 'jawad-adminer-'));
  const database = join(dir, 'shop.sqlite');
  execFileSync('sqlite3', [database], { input: SHOP, stdio: ['pipe', 'pipe', 'pipe'] });
  const hash = execFileSync('php', ['-r', 'echo password_hash($argv[1], PASSWORD_DEFAULT);', ADMINER_PASSWORD], { encoding: 'utf8' });
  writeFileSync(join(dir, 'index.php'), index(hash));
  // Every request goes to Adminer (it serves its own styles and scripts from the one file).
  const server = await startPhpServer(dir, join(dir, 'index.php'), '/');
  return {
    url: server.url,
    database,
    query(sql) {
      const out = execFileSync('sqlite3', ['-json', database, sql], { encoding: 'utf8' });
      return out.trim() === '' ? [] : (JSON.parse(out) as Array<Record<string, unknown>>).map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)])));
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
