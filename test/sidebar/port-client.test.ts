import type { Runtime } from 'webextension-polyfill';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PortClient, type ConnectionState } from '../../src/sidebar/port-client';

vi.mock('webextension-polyfill', () => ({ default: {} }));

/** A Port whose disconnect the test triggers, as the browser does when it stops the background. */
function fakePort() {
  const disconnected: Array<() => void> = [];
  const port = {
    name: 'jawad-sidebar',
    postMessage: vi.fn(),
    disconnect: vi.fn(),
    onMessage: { addListener: vi.fn() },
    onDisconnect: { addListener: (listener: () => void) => disconnected.push(listener) },
  };
  return { port: port as unknown as Runtime.Port, stop: () => disconnected.forEach((listener) => listener()) };
}

describe('PortClient', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function client(connect: () => Runtime.Port, mustStayConnected = true) {
    const states: ConnectionState[] = [];
    const client = new PortClient({ onEvent: () => {}, onState: (state) => states.push(state), onConnected: () => {}, mustStayConnected: () => mustStayConnected, connect });
    return { client, states };
  }

  it('reconnects at once when the background stops while the sidebar waits on it', () => {
    const first = fakePort();
    const connect = vi.fn<() => Runtime.Port>().mockReturnValueOnce(first.port).mockReturnValue(fakePort().port);
    client(connect).client.start();
    expect(connect).toHaveBeenCalledTimes(1);

    first.stop();
    // Not a backoff delay: the very next turn of the event loop starts the new background.
    vi.advanceTimersByTime(0);
    expect(connect).toHaveBeenCalledTimes(2);
  });

  it('backs off when connecting keeps failing (an extension being reloaded), and keeps what was sent', () => {
    const port = fakePort();
    let failures = 3;
    const connect = vi.fn(() => {
      if (failures-- > 0) throw new Error('Could not establish connection');
      return port.port;
    });
    const { client: sidebar } = client(connect);
    sidebar.start();
    sidebar.send({ type: 'PING', payload: {} });
    vi.advanceTimersByTime(0);
    expect(connect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(49);
    expect(connect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1);
    expect(connect).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(100);
    expect(connect).toHaveBeenCalledTimes(4);
    expect(port.port.postMessage).toHaveBeenCalledWith(expect.objectContaining({ type: 'PING' }));
  });

  it('lets an idle background sleep, and wakes it with the next message', () => {
    const first = fakePort();
    const second = fakePort();
    const connect = vi.fn<() => Runtime.Port>().mockReturnValueOnce(first.port).mockReturnValueOnce(second.port);
    const { client: sidebar, states } = client(connect, false);
    sidebar.start();
    first.stop();
    vi.advanceTimersByTime(10_000);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(states.at(-1)).toBe('idle');

    sidebar.send({ type: 'PING', payload: {} });
    expect(connect).toHaveBeenCalledTimes(2);
    expect(second.port.postMessage).toHaveBeenCalledWith(expect.objectContaining({ type: 'PING' }));
  });
});
