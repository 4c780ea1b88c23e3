import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, RelayConnection, type LinkState } from '../../../src/background/bridge/connection';
import { FakeSocket } from './fake-socket';

let sockets: FakeSocket[];
let states: LinkState[];
let link: RelayConnection;

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  states = [];
  link = new RelayConnection({
    open: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    onState: (state) => states.push(state),
    onOpen: () => undefined,
    onText: () => undefined,
    heartbeatMs: 1_000,
    backoffMs: [100, 200, 400],
  });
});
afterEach(() => {
  link.stop();
  vi.useRealTimers();
});

describe('RelayConnection', () => {
  it('backs off longer after each failure, up to the last step', () => {
    expect([0, 1, 2, 3, 10].map((attempt) => backoffDelay(attempt, [100, 200, 400]))).toEqual([100, 200, 400, 400, 400]);
  });

  it('reconnects with backoff and says why it is disconnected meanwhile', () => {
    link.start('ws://localhost:8080');
    expect(states.at(-1)).toEqual({ state: 'connecting' });
    sockets[0]!.drop();
    expect(states.at(-1)).toMatchObject({ state: 'disconnected', reason: expect.stringContaining('ws://localhost:8080') });
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(states.at(-1)).toEqual({ state: 'connected' });
  });

  it('is connected only while pongs come back: a missed pong drops the link and retries', () => {
    link.start('ws://localhost:8080');
    sockets[0]!.open();
    vi.advanceTimersByTime(1_000);
    expect(JSON.parse(sockets[0]!.sent.at(-1)!)).toMatchObject({ type: 'ping' });
    link.pong();
    vi.advanceTimersByTime(1_000);
    expect(states.at(-1)).toEqual({ state: 'connected' });
    vi.advanceTimersByTime(1_000);
    expect(states.at(-1)).toMatchObject({ state: 'disconnected', reason: expect.stringContaining('stopped answering pings') });
  });

  it('stops for good when turned off', () => {
    link.start('ws://localhost:8080');
    link.stop();
    sockets[0]!.drop();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    expect(states.at(-1)).toMatchObject({ state: 'disconnected', reason: 'Turned off.' });
  });
});
