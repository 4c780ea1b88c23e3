/**
 * `jawad mcp` in front of a real relay, driven by the official MCP SDK client over the SDK's
 * in-memory transport; a stand-in for Jawad's background holds a command on a "prompt".
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BridgeAgent } from '../../cli/bridge/agent-client';
import { serveMcp } from '../../cli/bridge/mcp-server';
import { Relay } from '../../cli/bridge/relay';

const WAITING = 'Waiting for the user to allow click on http://127.0.0.1 in Jawad (Acts on the page.).';

/** Jawad's side: pairs every client; a click waits on the user (pending notice) until `allow()`. */
async function fakeJawad(url: string) {
  const socket = new WebSocket(url, { headers: { origin: 'chrome-extension://fake' } });
  await new Promise((done, fail) => socket.once('open', done).once('error', fail));
  const held: Array<() => void> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    const answer = (response: unknown) => socket.send(JSON.stringify({ type: 'response', client: frame.client, response }));
    if (frame.type === 'client.hello') socket.send(JSON.stringify({ type: 'paired', client: frame.client, clientId: 'client-x' }));
    if (frame.type !== 'command') return;
    if (frame.command.type === 'dblclick') return answer({ id: frame.command.id, success: true, data: { action: 'dblclick', target: 'Delete', dialogs: [{ kind: 'confirm', message: 'Are you sure?', answered: 'cancel' }] } });
    if (frame.command.type !== 'click') return answer({ id: frame.command.id, success: true, data: { text: 'page' } });
    answer({ id: frame.command.id, pending: true, message: WAITING });
    held.push(() => answer({ id: frame.command.id, success: true, data: { text: 'clicked' } }));
  });
  return { socket, allow: () => held.shift()?.(), get holding() { return held.length; } };
}

describe('jawad mcp while a command waits on a Harbor prompt', () => {
  let relay: Relay;
  let jawad: Awaited<ReturnType<typeof fakeJawad>>;
  let agent: BridgeAgent;
  let client: Client;
  const logged: string[] = [];

  beforeEach(async () => {
    relay = new Relay({ port: 0 });
    await relay.start();
    jawad = await fakeJawad(relay.url);
    agent = new BridgeAgent({ url: relay.url, name: 'mcp' });
    await agent.connect();
    await agent.whenPaired(5_000);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await serveMcp(agent, { name: 'mcp' }, { line: () => undefined, progress: () => undefined }, serverSide, 100);
    client = new Client({ name: 'test', version: '1.0.0' });
    logged.length = 0;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(String(notification.params.data)));
    await client.connect(clientSide);
  });
  afterEach(async () => {
    await client.close();
    agent.close();
    jawad.socket.close();
    await relay.close();
  });

  it('sends progress notifications and a log message while the user decides, and the answer after', async () => {
    const progress: Progress[] = [];
    const calling = client.callTool({ name: 'click', arguments: { ref: 'e1' } }, undefined, { onprogress: (update) => void progress.push(update) });
    await expect.poll(() => progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ progress: 1, message: WAITING });
    expect(logged).toEqual([WAITING]);
    jawad.allow();
    const result = await calling;
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'clicked' }]);
  });

  it('a prompt longer than the client’s request timeout does not time out: the progress repeats and resets it', async () => {
    const progress: Progress[] = [];
    const calling = client.callTool({ name: 'click', arguments: { ref: 'e1' } }, undefined, { timeout: 400, resetTimeoutOnProgress: true, onprogress: (update) => void progress.push(update) });
    // Five times the timeout: only the repeated notices keep the call alive.
    await expect.poll(() => progress.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(20);
    expect(progress.map((update) => update.progress)).toEqual(progress.map((_, index) => index + 1));
    jawad.allow();
    expect((await calling).content).toEqual([{ type: 'text', text: 'clicked' }]);
    // Once answered, no more notices.
    const after = progress.length;
    await new Promise((done) => setTimeout(done, 300));
    expect(progress.length).toBe(after);
  });

  it('tells the client, under the action’s data, that Jawad cancelled the page’s own confirmation box and how to accept it', async () => {
    const result = await client.callTool({ name: 'dblclick', arguments: { ref: 'e4' } });
    const [content] = result.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(content!.text.split('\n(')[0]!)).toMatchObject({ action: 'dblclick', dialogs: [{ kind: 'confirm', answered: 'cancel' }] });
    expect(content!.text).toContain('\n(The page asked “Are you sure?” in a confirmation box of its own, and Jawad answered Cancel, so the page went no further. If the user asked for exactly this, click again with acceptDialog: true; the user is asked first.)');
  });

  it('a command that does not wait sends no notice', async () => {
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'snapshot', arguments: {} }, undefined, { onprogress: (update) => void progress.push(update) });
    expect(result.content).toEqual([{ type: 'text', text: 'page' }]);
    expect(progress).toEqual([]);
    expect(logged).toEqual([]);
  });
});
