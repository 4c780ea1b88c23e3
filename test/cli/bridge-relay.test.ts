import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BridgeAgent } from '../../cli/bridge/agent-client';
import { Relay } from '../../cli/bridge/relay';

let relay: Relay;

beforeEach(async () => {
  relay = new Relay({ port: 0 });
  await relay.start();
});
afterEach(async () => {
  await relay.close();
});

function socket(origin?: string): Promise<WebSocket> {
  const ws = new WebSocket(relay.url, origin ? { headers: { origin } } : {});
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const nextFrame = (ws: WebSocket) => new Promise<Record<string, unknown>>((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
const closed = (ws: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

describe('Relay', () => {
  it('refuses a web page, which could otherwise reach localhost from any site', async () => {
    const page = await socket('https://evil.example');
    expect(await closed(page)).toMatchObject({ code: 1008, reason: expect.stringContaining('Web pages') });
  });

  it('tags an agent’s hello and commands for the extension, and hands back the answers', async () => {
    const extension = await socket('chrome-extension://abcdefghijklmnop');
    const agent = new BridgeAgent({ url: relay.url, name: 'coder', code: 'ABCD12' });
    const hello = nextFrame(extension);
    await agent.connect();
    const frame = await hello;
    expect(frame).toMatchObject({ type: 'client.hello', name: 'coder', code: 'ABCD12' });
    const command = nextFrame(extension);
    const answer = agent.command('snapshot');
    expect(await command).toEqual({ type: 'command', client: frame.client, command: { id: 1, type: 'snapshot', params: {} } });
    extension.send(JSON.stringify({ type: 'response', client: frame.client, response: { id: 1, success: true, data: { text: 'ok' } } }));
    expect(await answer).toEqual({ id: 1, success: true, data: { text: 'ok' } });
    extension.close();
    agent.close();
  });

  it('introduces a paired agent again, with its token, when Jawad reconnects', async () => {
    const first = await socket('chrome-extension://abcdefghijklmnop');
    const agent = new BridgeAgent({ url: relay.url, name: 'coder' });
    const hello = nextFrame(first);
    await agent.connect();
    const { client } = await hello;
    first.send(JSON.stringify({ type: 'paired', client, token: 'f'.repeat(64), clientId: 'client-1' }));
    await agent.whenPaired(2_000);
    first.close();
    // The relay introduces its agents as soon as Jawad connects: listen before the socket opens.
    const again = new WebSocket(relay.url, { headers: { origin: 'chrome-extension://abcdefghijklmnop' } });
    expect(await nextFrame(again)).toEqual({ type: 'client.hello', client, name: 'coder', code: agent.code, token: 'f'.repeat(64) });
    again.close();
    agent.close();
  });

  it('answers the commands Jawad still held when it disconnects', async () => {
    const extension = await socket('chrome-extension://abcdefghijklmnop');
    const agent = new BridgeAgent({ url: relay.url, name: 'coder' });
    const hello = nextFrame(extension);
    await agent.connect();
    await hello;
    const command = nextFrame(extension);
    const answer = agent.command('click', { ref: 'e1' });
    await command;
    extension.close();
    expect(await answer).toMatchObject({ id: 1, success: false, code: 'NOT_CONNECTED', error: expect.stringContaining('disconnected') });
    agent.close();
  });

  it('tells an agent clearly when Jawad is not connected, and answers pings', async () => {
    const agent = new BridgeAgent({ url: relay.url, name: 'coder' });
    await agent.connect();
    expect(await agent.command('snapshot')).toMatchObject({ success: false, code: 'NOT_CONNECTED', error: expect.stringContaining(relay.url) });
    const extension = await socket('moz-extension://0000');
    const pong = nextFrame(extension);
    extension.send(JSON.stringify({ type: 'ping', t: 42 }));
    expect(await pong).toEqual({ type: 'pong', t: 42 });
    extension.close();
    agent.close();
  });
});
