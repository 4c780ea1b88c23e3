import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const FIXTURES = resolve(import.meta.dirname, '../fixtures');
const MODULES = resolve(import.meta.dirname, '../../node_modules');
/** Where tests put files they make as they run, served under /made/. */
export const MADE_BY_TESTS = join(tmpdir(), 'jawad-fixtures-made');
/** Real framework builds for the React and Vue fixture apps, straight from node_modules (no network, no build step). */
const VENDOR: Record<string, string> = {
  '/vendor/react.js': join(MODULES, 'react/umd/react.production.min.js'),
  '/vendor/react-dom.js': join(MODULES, 'react-dom/umd/react-dom.production.min.js'),
  '/vendor/vue.js': join(MODULES, 'vue/dist/vue.global.prod.js'),
  // Debian's jQuery UI (libjs-jquery-ui; the tests that use it install it): its real modal dialog.
  '/vendor/jquery.js': '/usr/share/javascript/jquery/jquery.min.js',
  '/vendor/jquery-ui.js': '/usr/share/javascript/jquery-ui/jquery-ui.min.js',
  '/vendor/jquery-ui.css': '/usr/share/javascript/jquery-ui/themes/base/jquery-ui.min.css',
  // Debian's CodeMirror 5 (libjs-codemirror, as phpMyAdmin uses it): an editor typed into through a hidden textarea.
  '/vendor/codemirror.js': '/usr/share/javascript/codemirror/lib/codemirror.js',
  '/vendor/codemirror.css': '/usr/share/javascript/codemirror/lib/codemirror.css',
  '/vendor/codemirror-sql.js': '/usr/share/javascript/codemirror/mode/sql/sql.js',
  // Debian's ProseMirror (node-prosemirror-*): ES modules, found by the fixture's import map.
  ...Object.fromEntries(['model', 'transform', 'state', 'view', 'schema-basic', 'schema-list'].map((name) => [`/vendor/prosemirror/${name}.js`, `/usr/share/nodejs/prosemirror-${name}/dist/index.es.js`])),
  '/vendor/prosemirror/orderedmap.js': '/usr/share/nodejs/prosemirror-model/node_modules/orderedmap/index.es.js',
  '/vendor/prosemirror/prosemirror.css': '/usr/share/nodejs/prosemirror-view/style/prosemirror.css',
  // Quill 2 and Trix 2 (npm; neither is in Debian): rich-text editors with their own document models.
  '/vendor/quill.js': join(MODULES, 'quill/dist/quill.js'),
  '/vendor/quill.snow.css': join(MODULES, 'quill/dist/quill.snow.css'),
  '/vendor/trix.js': join(MODULES, 'trix/dist/trix.umd.min.js'),
  '/vendor/trix.css': join(MODULES, 'trix/dist/trix.css'),
  // Workbox, the service-worker library most offline sites are built with: its loader and the modules it loads.
  '/vendor/workbox/workbox-sw.js': join(MODULES, 'workbox-sw/build/workbox-sw.js'),
  ...Object.fromEntries(['core', 'routing', 'strategies'].map((name) => [`/vendor/workbox/workbox-${name}.prod.js`, join(MODULES, `workbox-${name}/build/workbox-${name}.prod.js`)])),
};
/** Whole trees of web libraries whose script loads its own parts (plugins, skins, languages) beside it. */
const VENDOR_TREES: Record<string, string> = {
  // Debian's CKEditor 4 (ckeditor): the classic editor, which edits in a frame of its own.
  '/vendor/ckeditor/': '/usr/share/javascript/ckeditor/',
  // Ace (ace-builds from npm; not in Debian): the editor and the modes and themes it loads beside it.
  '/vendor/ace/': join(MODULES, 'ace-builds/src-min-noconflict/'),
  // Monaco (monaco-editor from npm, VS Code's editor): its AMD build, the loader and the modules it loads.
  '/vendor/monaco/': join(MODULES, 'monaco-editor/min/'),
  // Debian's documentation (the tests that serve a file of it install its package): real PDFs.
  '/debian-docs/': '/usr/share/doc/',
  // Files a test makes with a real tool as it runs (a PDF locked by qpdf).
  '/made/': `${MADE_BY_TESTS}/`,
};
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.gif': 'image/gif', '.json': 'application/json', '.pdf': 'application/pdf' };

/** Captures of real sites (test/fixtures/real-sites/SOURCES.md), stored gzipped. */
const CAPTURES = join(FIXTURES, 'real-sites');
/** A loopback port nothing listens on: a request there fails at once, in every browser. */
export const DEAD_PORT = 9;

/**
 * A captured page refers to dozens of other hosts (its CDN, ads, fonts). Offline, each unknown
 * host holds the page's load event for seconds; pointed at a dead loopback port they fail at once.
 * Bytes stay bytes (latin1 in and out), so the page's own encoding is untouched.
 */
export function deadExternalRefs(html: string): string {
  const dead = `http://127.0.0.1:${DEAD_PORT}/`;
  return html.replace(/\bhttps?:(\\?\/){2}(?!127\.0\.0\.1[:/]|localhost[:/])/gi, dead).replace(/(["'(=\s])\/\/(?=[a-z0-9-]+\.[a-z0-9.-]+\/)/gi, `$1${dead}`);
}

export interface FixtureRequest {
  /** The Host header: "127.0.0.1:PORT" or "localhost:PORT". */
  host: string;
  /** The request target with its query string. */
  url: string;
}

export interface FixtureServer {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  /** Paths requested, in order (to prove what a page or the extension fetched). */
  hits: string[];
  /** Every request with the host it was addressed to (127.0.0.1 and localhost are different sites). */
  requests: FixtureRequest[];
  close(): Promise<void>;
}

/**
 * Serves test/fixtures on 127.0.0.1 — realistic pages for the extension to read. `host` puts it on
 * another loopback address (127.0.0.2): a site of its own, for tests that need several.
 */
export async function startFixtureServer(host = '127.0.0.1'): Promise<FixtureServer> {
  const hits: string[] = [];
  const requests: FixtureRequest[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    hits.push(path);
    requests.push({ host: request.headers.host ?? '', url: request.url ?? '/' });
    // A frame that never loads (test/e2e/bad-input.e2e.ts): the request stays open until the server closes.
    if (path === '/never-loads') return;
    // A slow server: /slow/<file>?ms=700 answers with the file that much later (an app's AJAX views).
    if (path.startsWith('/slow/')) {
      setTimeout(() => serveFile(path.slice('/slow'.length), response), Math.min(Number(url.searchParams.get('ms')) || 0, 10_000));
      return;
    }
    // A download link that works once: /once/<file> answers 410 Gone after its first request.
    if (path.startsWith('/once/')) {
      if (hits.filter((hit) => hit === path).length > 1) return void response.writeHead(410, { 'Content-Type': 'text/plain' }).end('gone');
      return serveFile(path.slice('/once'.length), response);
    }
    serveFile(path, response);
  });
  await new Promise<void>((done) => server.listen(0, host, done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    hits,
    requests,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

/**
 * ES module packages from node_modules for a fixture's import map (`"@lexical/": "/vendor/npm/@lexical/"`):
 * `/vendor/npm/<package>[/<subpath>]` is the file the package's `exports` name for it, in its production build,
 * as a bundler would pick it.
 */
const NPM_MODULES = '/vendor/npm/';
type ExportTarget = string | { production?: ExportTarget; browser?: ExportTarget; import?: ExportTarget; default?: ExportTarget };

function npmModule(path: string): string | undefined {
  const [scopeOrName = '', ...rest] = path.slice(NPM_MODULES.length).split('/');
  const [name, subpath] = scopeOrName.startsWith('@') ? [`${scopeOrName}/${rest[0]}`, rest.slice(1)] : [scopeOrName, rest];
  const root = join(MODULES, name);
  if (!root.startsWith(`${MODULES}/`) || !existsSync(join(root, 'package.json'))) return undefined;
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports?: ExportTarget | Record<string, ExportTarget> };
  // `exports` names subpaths ("./signals": …), or is the package's one entry itself ({ import: … }).
  const bySubpath = typeof exports === 'object' && Object.keys(exports).some((key) => key.startsWith('.'));
  let target = bySubpath ? (exports as Record<string, ExportTarget>)[['.', ...subpath].join('/')] : subpath.length === 0 ? exports : undefined;
  while (target !== undefined && typeof target !== 'string') target = target.production ?? target.browser ?? target.import ?? target.default;
  const file = target === undefined ? undefined : normalize(join(root, target));
  return file?.startsWith(root) ? file : undefined;
}

/** The vendored library file at `path`, if any (never outside its tree). */
function vendored(path: string): string | undefined {
  if (VENDOR[path]) return VENDOR[path];
  if (path.startsWith(NPM_MODULES)) return npmModule(path);
  const [prefix, root] = Object.entries(VENDOR_TREES).find(([start]) => path.startsWith(start)) ?? [];
  if (prefix === undefined || root === undefined) return undefined;
  const file = normalize(join(root, path.slice(prefix.length)));
  return file.startsWith(root) ? file : undefined;
}

/** A fixture file (or a real site's capture, or a vendored library) at `path`. */
function serveFile(path: string, response: ServerResponse): void {
  const vendor = vendored(path);
  const file = vendor ?? normalize(join(FIXTURES, path));
  if (file.startsWith(CAPTURES) && !existsSync(file) && existsSync(`${file}.gz`)) {
    const html = gunzipSync(readFileSync(`${file}.gz`)).toString('latin1');
    // A page that names its encoding (Shift_JIS, EUC-JP …) is read in it; the rest as UTF-8.
    const type = /<meta[^>]+charset/i.test(html.slice(0, 4096)) ? 'text/html' : TYPES['.html'];
    response.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(deadExternalRefs(html), 'latin1');
    return;
  }
  if ((!vendor && !file.startsWith(FIXTURES)) || !existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
  createReadStream(file).pipe(response);
}
