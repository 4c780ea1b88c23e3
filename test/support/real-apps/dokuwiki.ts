/**
 * DokuWiki (Debian's package) on PHP's built-in server, a fresh wiki per start: its own copy of
 * the package's configuration and data in a temporary folder (DOKU_CONF, savedir), an admin and a
 * second user. Its state is plain files: the pages, their change logs, users.auth.php, acl.auth.php.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { ensurePackages } from './debian';
import { startPhpServer } from './php-server';

const DOKUWIKI = '/usr/share/dokuwiki';
export const DOKU_ADMIN = { user: 'admin', password: 'Jawad-test-pass-3' };

export interface DokuWiki extends RealApp {
  /** A configuration file (users.auth.php, acl.auth.php, local.php). */
  conf(name: string): string;
  /** A page's wiki text, or null when there is no such page. */
  page(id: string): string | null;
  /** Who made a page's changes, oldest first (its change log). */
  authors(id: string): string[];
  /** The media files of a namespace, by name, with their sizes in bytes. */
  media(namespace: string): Array<{ name: string; bytes: number }>;
  /** The wiki's media change log, oldest first: which file, by whom. */
  mediaChanges(): Array<{ id: string; user: string }>;
}

/** This wiki's configuration folder, for the web server and the command-line tools alike. */
const prepend = (confDir: string) => `<?php\nif (!defined('DOKU_CONF')) define('DOKU_CONF', '${confDir}/');\n`;

/** Every request through DokuWiki's own entry points, with this wiki's configuration (php -S ignores auto_prepend_file for its router). */
const router = (prependFile: string) => `<?php
require '${prependFile}';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = '${DOKUWIKI}' . $path;
if ($path !== '/' && is_file($file) && !str_ends_with($path, '.php')) return false;
$script = (str_ends_with($path, '.php') && is_file($file)) ? $file : '${DOKUWIKI}/doku.php';
$_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = str_ends_with($path, '.php') ? $path : '/doku.php';
$_SERVER['SCRIPT_FILENAME'] = $script;
chdir(dirname($script));
require $script;
`;

const hash = (password: string) => execFileSync('php', ['-r', 'echo password_hash($argv[1], PASSWORD_BCRYPT);', password], { encoding: 'utf8' });

/** The pages the tasks start from, beside the package's own (wiki:syntax, wiki:welcome…). */
const PAGES: Record<string, string> = {
  shopping: '====== Shopping list ======\n\n  * Milk\n  * Bread\n',
  start: '====== Team wiki ======\n\nSee the [[shopping]] list.\n',
};

/** A picture bob uploaded an hour ago, the file and its entry in the media change log written by the wiki's own code. */
const BOBS_UPLOAD = { id: 'team:floor-plan.png', user: 'bob', summary: 'Ground floor plan' };

function seedUpload(dir: string, data: string, withConf: string[]): void {
  const [namespace, name] = BOBS_UPLOAD.id.split(':') as [string, string];
  mkdirSync(join(data, 'media', namespace), { recursive: true });
  cpSync(join(data, 'media', 'wiki', 'dokuwiki-128.png'), join(data, 'media', namespace, name));
  const script = join(dir, 'seed-upload.php');
  writeFileSync(script, `<?php
define('DOKU_INC', '${DOKUWIKI}/');
define('NOSESSION', 1);
require_once DOKU_INC . 'inc/init.php';
$_SERVER['REMOTE_USER'] = '${BOBS_UPLOAD.user}';
$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
addMediaLogEntry(time() - 3600, '${BOBS_UPLOAD.id}', DOKU_CHANGE_TYPE_CREATE, '${BOBS_UPLOAD.summary}', '', null, filesize(mediaFN('${BOBS_UPLOAD.id}')));
`);
  execFileSync('php', [...withConf, script], { stdio: 'pipe', timeout: 60_000 });
}

export async function startDokuWiki(): Promise<DokuWiki> {
  ensurePackages(['dokuwiki', 'php-cli']);
  const dir = mkdtempSync(join(tmpdir(), 'jawad-dokuwiki-'));
  const conf = join(dir, 'conf');
  const data = join(dir, 'data');
  cpSync('/etc/dokuwiki', conf, { recursive: true, filter: (source) => !source.includes('/farm') });
  cpSync('/var/lib/dokuwiki/data', data, { recursive: true });
  writeFileSync(join(conf, 'local.php'), `<?php\n$conf['title'] = 'Team wiki';\n$conf['savedir'] = '${data}';\n$conf['useacl'] = 1;\n$conf['superuser'] = '@admin';\n$conf['lang'] = 'en';\n`);
  writeFileSync(join(conf, 'users.auth.php'), [
    `${DOKU_ADMIN.user}:${hash(DOKU_ADMIN.password)}:Wiki Admin:admin@example.com:admin,user`,
    `bob:${hash('Bob-pass-1')}:Bob Builder:bob@example.com:user`,
    '',
  ].join('\n'));
  writeFileSync(join(conf, 'acl.auth.php'), '*\t@ALL\t1\n*\t@user\t8\n');
  for (const [id, text] of Object.entries(PAGES)) writeFileSync(join(data, 'pages', `${id}.txt`), text);
  writeFileSync(join(dir, 'prepend.php'), prepend(conf));
  writeFileSync(join(dir, 'router.php'), router(join(dir, 'prepend.php')));
  const withConf = ['-d', `auto_prepend_file=${join(dir, 'prepend.php')}`];
  // The search index, as the wiki's own indexer builds it (pages are otherwise indexed as they are viewed).
  execFileSync('php', [...withConf, `${DOKUWIKI}/bin/indexer.php`, '-q'], { stdio: 'pipe', timeout: 60_000 });
  seedUpload(dir, data, withConf);
  const server = await startPhpServer(DOKUWIKI, join(dir, 'router.php'), '/doku.php?id=start', { PHP_CLI_SERVER_WORKERS: '4' });
  // The package's own wiki (/var/lib/dokuwiki) must never be the one the tests write to.
  const home = await (await fetch(`${server.url}/doku.php?id=start`)).text();
  if (!home.includes('[Team wiki]')) {
    await server.stop();
    throw new Error('DokuWiki did not take the test configuration');
  }
  const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);
  return {
    url: server.url,
    conf: (name) => read(join(conf, name)) ?? '',
    page: (id) => read(join(data, 'pages', `${id.replace(/:/g, '/')}.txt`)),
    media: (namespace) => readdirSync(join(data, 'media', namespace)).map((name) => ({ name, bytes: statSync(join(data, 'media', namespace, name)).size })),
    mediaChanges: () => (read(join(data, 'meta', '_media.changes')) ?? '').split('\n').filter(Boolean).map((line) => line.split('\t')).map((fields) => ({ id: fields[3] ?? '', user: fields[4] ?? '' })),
    authors: (id) => (read(join(data, 'meta', `${id.replace(/:/g, '/')}.changes`)) ?? '').split('\n').filter(Boolean).map((line) => line.split('\t')[4] ?? ''),
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
