/**
 * MediaWiki (Debian's package) on PHP's built-in server with SQLite, a fresh wiki per start:
 * OOUI widgets whose dropdown menus live in an overlay at the end of <body>, and the Vector skin's
 * CSS-only menus behind a hidden checkbox. The wiki's own API answers what happened.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { ensurePackages } from './debian';
import { freePort } from '../ports';
import { startPhpServer } from './php-server';

const MEDIAWIKI = '/usr/share/mediawiki';
export const WIKI_ADMIN = { user: 'Admin', password: 'Jawad-test-pass-1' };

export interface MediaWiki extends RealApp {
  /** GET api.php with these parameters (format=json added). */
  api(params: Record<string, string>): Promise<Record<string, unknown>>;
  /** The wikitext of a page's latest revision and who made it, or null when there is no such page. */
  latest(title: string): Promise<{ content: string; user: string } | null>;
}

/** Sends every request through MediaWiki's entry points with this wiki's settings. */
const ROUTER = `<?php
define('MW_CONFIG_FILE', __DIR__ . '/LocalSettings.php');
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = '${MEDIAWIKI}' . $path;
if ($path !== '/' && is_file($file) && !str_ends_with($path, '.php')) return false;
$script = (str_ends_with($path, '.php') && is_file($file)) ? $file : '${MEDIAWIKI}/index.php';
$_SERVER['SCRIPT_NAME'] = str_ends_with($path, '.php') ? $path : '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $script;
chdir('${MEDIAWIKI}');
require $script;
`;

export async function startMediaWiki(): Promise<MediaWiki> {
  ensurePackages(['mediawiki', 'php-sqlite3', 'php-cli']);
  const dir = mkdtempSync(join(tmpdir(), 'jawad-mediawiki-'));
  const port = await freePort();
  execFileSync('php', [
    `${MEDIAWIKI}/maintenance/install.php`, '--dbtype', 'sqlite', '--dbpath', join(dir, 'data'), '--dbname', 'wiki',
    '--server', `http://127.0.0.1:${port}`, '--scriptpath', '', '--confpath', dir, '--pass', WIKI_ADMIN.password, '--skins', 'Vector',
    'Test Wiki', WIKI_ADMIN.user,
  ], { stdio: 'pipe', timeout: 120_000 });
  // Vector (the legacy skin, with its CSS-only menus); no throttling of a test's repeated logins.
  appendFileSync(join(dir, 'LocalSettings.php'), "\n$wgDefaultSkin = 'vector';\n$wgPasswordAttemptThrottle = [];\n$wgRateLimits = [];\n");
  writeFileSync(join(dir, 'router.php'), ROUTER);
  const server = await startPhpServer(MEDIAWIKI, join(dir, 'router.php'), '/index.php?title=Main_Page', { PHP_CLI_SERVER_WORKERS: '4' }, port);
  const api = async (params: Record<string, string>) => {
    const response = await fetch(`${server.url}/api.php?${new URLSearchParams({ ...params, format: 'json', formatversion: '2' })}`);
    return (await response.json()) as Record<string, unknown>;
  };
  return {
    url: server.url,
    api,
    async latest(title) {
      const answer = (await api({ action: 'query', prop: 'revisions', titles: title, rvprop: 'content|user', rvslots: 'main' })) as {
        query: { pages: Array<{ missing?: boolean; revisions?: Array<{ user: string; slots: { main: { content: string } } }> }> };
      };
      const revision = answer.query.pages[0]?.revisions?.[0];
      return revision ? { content: revision.slots.main.content, user: revision.user } : null;
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
