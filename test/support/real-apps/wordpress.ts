/**
 * WordPress (Debian's package) on PHP's built-in server over a private MariaDB server, a fresh
 * site per start: the block editor (React, contenteditable fields, a welcome dialog over the page)
 * and the admin screens. The database answers what happened (through the mariadb client).
 *
 * Debian's wp-config.php reads /etc/wordpress/config-$WORDPRESS_CONFIG.php, so each start writes
 * its own file there (and removes it on stop); nothing else outside its temporary folder is touched.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { ensurePackages } from './debian';
import { freePort } from '../ports';
import { startMariaDb } from './mariadb';
import { frontControllerRouter, startPhpServer } from './php-server';

const WORDPRESS = '/usr/share/wordpress';
export const WP_ADMIN = { user: 'editor', password: 'Jawad-test-pass-3', email: 'editor@example.com' };

export interface WordPress extends RealApp {
  /** Rows of a query on the site's database, each as column → text. */
  query(sql: string): Array<Record<string, string>>;
}

/** Every request through WordPress's entry points, with this site's configuration. */
const router = (configName: string) => frontControllerRouter(WORDPRESS, `$_SERVER['WORDPRESS_CONFIG'] = '${configName}';`);

const config = (socket: string, url: string) => `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:${socket}');
define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
define('WP_CONTENT_DIR', '${WORDPRESS}/wp-content');
// No network beyond loopback: WordPress's calls home (updates, news, fonts) fail at once, not after a timeout.
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('AUTH_KEY', 'jawad-test'); define('SECURE_AUTH_KEY', 'jawad-test'); define('LOGGED_IN_KEY', 'jawad-test'); define('NONCE_KEY', 'jawad-test');
define('AUTH_SALT', 'jawad-test'); define('SECURE_AUTH_SALT', 'jawad-test'); define('LOGGED_IN_SALT', 'jawad-test'); define('NONCE_SALT', 'jawad-test');
`;

/** WordPress's own installer, as a person fills it in (the second step of wp-admin/install.php). */
async function install(url: string): Promise<void> {
  const form = new URLSearchParams({
    weblog_title: 'Jawad Test Blog',
    user_name: WP_ADMIN.user,
    admin_password: WP_ADMIN.password,
    admin_password2: WP_ADMIN.password,
    pw_weak: '1',
    admin_email: WP_ADMIN.email,
    blog_public: '0',
    language: '',
  });
  const response = await fetch(`${url}/wp-admin/install.php?step=2`, { method: 'POST', body: form });
  const page = await response.text();
  if (!/Success!/.test(page)) throw new Error(`WordPress did not install: HTTP ${response.status} ${page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 400)}`);
}

export async function startWordPress(): Promise<WordPress> {
  ensurePackages(['wordpress', 'wordpress-theme-twentytwentythree', 'mariadb-server', 'php-mysql', 'php-cli']);
  const dir = mkdtempSync(join(tmpdir(), 'jawad-wordpress-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const configName = `jawad-test-${port}`;
  const configFile = `/etc/wordpress/config-${configName}.php`;
  const database = await startMariaDb(dir, 'wordpress');
  let server: Awaited<ReturnType<typeof startPhpServer>> | undefined;
  const stop = async () => {
    await server?.stop();
    await database.stop();
    rmSync(configFile, { force: true });
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    writeFileSync(configFile, config(database.socket, url));
    writeFileSync(join(dir, 'router.php'), router(configName));
    server = await startPhpServer(WORDPRESS, join(dir, 'router.php'), '/wp-admin/install.php', { PHP_CLI_SERVER_WORKERS: '4' }, port);
    await install(url);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    query: (sql) => database.query(sql),
    stop,
  };
}
