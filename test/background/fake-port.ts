/** A stand-in for a WebExtension Runtime.Port: records what is posted and lets a test fire events. */
import { vi } from 'vitest';
import type { Runtime } from 'webextension-polyfill';
import type { BackgroundEvent } from '../../src/protocol';

type Listener = (...args: any[]) => void;

function registry() {
  const listeners = new Set<Listener>();
  return {
    listeners,
    addListener: (listener: Listener) => void listeners.add(listener),
    removeListener: (listener: Listener) => void listeners.delete(listener),
    hasListener: (listener: Listener) => listeners.has(listener),
    hasListeners: () => listeners.size > 0,
  };
}

export interface FakePort {
  port: Runtime.Port;
  posted: BackgroundEvent[];
  postMessage: ReturnType<typeof vi.fn>;
  disconnect: ReturnType<typeof vi.fn>;
  /** Delivers a message from the sidebar, as the browser would. */
  receive(message: unknown): void;
  /** Fires onDisconnect, as the browser does when the sidebar closes. */
  close(): void;
  messageListeners: Set<Listener>;
}

export function fakePort(name: string, sender: Runtime.MessageSender | undefined): FakePort {
  const onMessage = registry();
  const onDisconnect = registry();
  const posted: BackgroundEvent[] = [];
  const postMessage = vi.fn((message: BackgroundEvent) => void posted.push(message));
  const disconnect = vi.fn();
  const port = { name, sender, postMessage, disconnect, onMessage, onDisconnect } as unknown as Runtime.Port;
  return {
    port,
    posted,
    postMessage,
    disconnect,
    receive: (message) => onMessage.listeners.forEach((listener) => listener(message, port)),
    close: () => onDisconnect.listeners.forEach((listener) => listener(port)),
    messageListeners: onMessage.listeners,
  };
}
