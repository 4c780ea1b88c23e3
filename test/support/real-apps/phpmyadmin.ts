/**
 * phpMyAdmin (Debian's package) on PHP's built-in server over a private MariaDB server
 * (mariadb.ts), a fresh shop database per start: the same customers and orders as the Adminer rig,
 * behind phpMyAdmin's cookie login, AJAX page loads, navigation tree and CodeMirror SQL editor.
 * The database answers what happened (through the mariadb client).
 *
 * Debian's /etc/phpmyadmin/config.inc.php includes /etc/phpmyadmin/conf.d/*.php, so each start
 * writes a snippet there that applies only to the requests of its own server (the router marks
 * them) and removes it on stop; it replaces the package's server list (whatever dbconfig-common
 * wrote) with this run's MariaDB socket. MariaDB runs without grant tables, so any user name and
 * password log in. Nothing else outside the temporary folder is touched.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { ensurePackages } from './debian';
import { freePort } from '../ports';
import { startMariaDb } from './mariadb';
import { frontControllerRouter, startPhpServer } from './php-server';
import { SHOP_ROWS } from './shop';

const PHPMYADMIN = '/usr/share/phpmyadmin';
const CONF_D = '/etc/phpmyadmin/conf.d';
/** What the agent types in the login form (no grant tables: MariaDB takes any user and password). */
export const PMA_LOGIN = { user: 'root', password: 'Jawad-test-pass-4' };

export interface PhpMyAdmin extends RealApp {
  /** Rows of a query on the shop database, each as column → text. */
  query(sql: string): Array<Record<string, string>>;
}

/** The shop's tables (shop.ts) in MariaDB's words, then its rows. */
const SHOP = `
SET NAMES utf8mb4;
ALTER DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(100), city VARCHAR(100)) ENGINE=InnoDB;
CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, customer_id INT, total DECIMAL(10,2), status VARCHAR(20), FOREIGN KEY (customer_id) REFERENCES customers(id)) ENGINE=InnoDB;
CREATE INDEX name_city ON customers (name, city);
${SHOP_ROWS}`;

/** Every request through phpMyAdmin's entry points, marked as this run's and with its own sessions. */
const router = (mark: string, sessions: string) => frontControllerRouter(PHPMYADMIN, `$_SERVER['JAWAD_PMA_TEST'] = '${mark}';\nini_set('session.save_path', '${sessions}');`);

/** The conf.d snippet: this run's server only, nothing that calls outside the machine. */
const snippet = (mark: string, socket: string, temp: string, secret: string) => `<?php
// Written by Jawad's E2E tests (test/support/real-apps/phpmyadmin.ts) for one run; removed when it stops.
if (($_SERVER['JAWAD_PMA_TEST'] ?? '') === '${mark}') {
    $cfg['Servers'] = [1 => [
        'auth_type' => 'cookie',
        'host' => 'localhost',
        'connect_type' => 'socket',
        'socket' => '${socket}',
        'AllowNoPassword' => false,
    ]];
    $cfg['ServerDefault'] = 1;
    $cfg['blowfish_secret'] = '${secret}';
    $cfg['VersionCheck'] = false;
    $cfg['SendErrorReports'] = 'never';
    $cfg['TempDir'] = '${temp}';
    $cfg['UploadDir'] = '';
    $cfg['SaveDir'] = '';
}
`;

export async function startPhpMyAdmin(): Promise<PhpMyAdmin> {
  // The package would set up its own storage database in the machine's MariaDB through dbconfig-common: not wanted here.
  ensurePackages(['phpmyadmin', 'mariadb-server', 'mariadb-client', 'php-mysql', 'php-cli', 'php-mbstring', 'php-xml'], 'phpmyadmin phpmyadmin/dbconfig-install boolean false\n');
  const dir = mkdtempSync(join(tmpdir(), 'jawad-phpmyadmin-'));
  const port = await freePort();
  const mark = `jawad-test-${port}`;
  const snippetFile = join(CONF_D, `${mark}.php`);
  const database = await startMariaDb(dir, 'shop');
  let server: Awaited<ReturnType<typeof startPhpServer>> | undefined;
  const stop = async () => {
    await server?.stop();
    await database.stop();
    rmSync(snippetFile, { force: true });
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    database.run(SHOP);
    for (const sub of ['tmp', 'sessions']) mkdirSync(join(dir, sub));
    mkdirSync(CONF_D, { recursive: true });
    // 32 characters, as phpMyAdmin's cookie encryption wants.
    writeFileSync(snippetFile, snippet(mark, database.socket, join(dir, 'tmp'), 'jawad-test-blowfish-secret-32chr'));
    writeFileSync(join(dir, 'router.php'), router(mark, join(dir, 'sessions')));
    server = await startPhpServer(PHPMYADMIN, join(dir, 'router.php'), '/', { PHP_CLI_SERVER_WORKERS: '4' }, port);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: server.url,
    query: (sql) => database.query(sql),
    stop,
  };
}
