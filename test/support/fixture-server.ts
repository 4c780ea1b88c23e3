import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const FIXTURES = resolve(import.meta.dirname, '../fixtures');
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.json': 'application/json' };

export interface FixtureServer {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  /** Paths requested, in order (to prove what a page or the extension fetched). */
  hits: string[];
  close(): Promise<void>;
}

/** Serves test/fixtures on 127.0.0.1 — realistic pages for the extension to read. */
export async function startFixtureServer(): Promise<FixtureServer> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    hits.push(path);
    const file = normalize(join(FIXTURES, path));
    if (!file.startsWith(FIXTURES) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}
