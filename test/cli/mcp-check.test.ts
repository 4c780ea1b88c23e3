import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { main } from '../../cli/main';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { line: (text: string) => void out.push(text), progress: (text: string) => void err.push(text) } };
}

const configDirs: string[] = [];
/** A config folder of its own for each run of the command, removed when the file is done. */
const env = () => {
  const dir = mkdtempSync(join(tmpdir(), 'jawad-check-'));
  configDirs.push(dir);
  return { JAWAD_CONFIG_DIR: dir };
};
afterAll(() => {
  for (const dir of configDirs) rmSync(dir, { recursive: true, force: true });
});

function listen(server: Server): Promise<number> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
}

/** Stands in for Jawad's background: connects with an extension origin, pairs any client, answers commands. */
async function fakeExtension(port: number): Promise<WebSocket> {
  for (;;) {
    const socket = new WebSocket(`ws://localhost:${port}`, { headers: { origin: 'chrome-extension://fake' } });
    const opened = await new Promise<boolean>((done) => {
      socket.once('open', () => done(true));
      socket.once('error', () => done(false));
    });
    if (!opened) {
      await new Promise((done) => setTimeout(done, 50));
      continue;
    }
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'client.hello') socket.send(JSON.stringify({ type: 'paired', client: frame.client, token: 'a'.repeat(64), clientId: 'client-x' }));
      if (frame.type === 'command') socket.send(JSON.stringify({ type: 'response', client: frame.client, response: { id: frame.command.id, success: true, data: { tabs: [] } } }));
    });
    return socket;
  }
}

describe('jawad mcp --check', () => {
  it('says the relay cannot start when the port is taken', async () => {
    const blocker = createServer();
    const port = await listen(blocker);
    const { err, output } = capture();
    expect(await main(['mcp', '--check', '--port', String(port)], env(), output)).toBe(1);
    expect(err.join('\n')).toContain(`Port ${port} is in use`);
    blocker.close();
  });

  it('walks the chain and ticks each link when it holds', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((done) => probe.close(done));
    const { out, output } = capture();
    const checking = main(['mcp', '--check', '--port', String(port)], env(), output);
    const extension = await fakeExtension(port);
    expect(await checking).toBe(0);
    expect(out).toEqual([`✓ relay listening on ws://localhost:${port}`, '✓ Jawad connected', '✓ paired as "mcp"', '✓ a command ran (tab list)']);
    extension.close();
  });
});
