/**
 * The background's WebSocket to the relay (seed 004: the extension is the client): heartbeat
 * (ping/pong), reconnect with backoff, and an honest state — "connected" only while pongs come back.
 * The socket constructor is injected so the state machine is tested without a browser.
 */
import type { ExtensionFrame } from '../../protocol/bridge';

export type LinkState = { state: 'disconnected' | 'connecting' | 'connected'; reason?: string } | { state: 'error'; reason: string };

/** What the connection needs of a WebSocket (the browser's, or a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface ConnectionOptions {
  open: (url: string) => SocketLike;
  onState: (state: LinkState) => void;
  onOpen: () => void;
  onText: (text: string) => void;
  /** Heartbeat period; a ping not answered within the next period counts as a dead link. */
  heartbeatMs?: number;
  backoffMs?: readonly number[];
  now?: () => number;
}

const OPEN = 1;
/** Retry delays: quick at first (a relay restarting), then every 10 s. */
export const BACKOFF_MS = [250, 500, 1_000, 2_000, 5_000, 10_000] as const;
export const HEARTBEAT_MS = 10_000;

export function backoffDelay(attempt: number, steps: readonly number[] = BACKOFF_MS): number {
  return steps[Math.min(attempt, steps.length - 1)]!;
}

export class RelayConnection {
  private socket: SocketLike | undefined;
  private url: string | undefined;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private awaitingPong = false;
  private lastState: LinkState = { state: 'disconnected' };

  constructor(private readonly options: ConnectionOptions) {}

  get state(): LinkState {
    return this.lastState;
  }

  /** Connects (or reconnects to a new URL), and keeps reconnecting until stop(). */
  start(url: string): void {
    this.stop();
    this.url = url;
    this.attempt = 0;
    this.dial();
  }

  stop(reason = 'Turned off.'): void {
    this.url = undefined;
    clearTimeout(this.retryTimer);
    this.stopHeartbeat();
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = socket.onerror = socket.onmessage = socket.onopen = null;
      socket.close(1000, 'bye');
    }
    this.setState({ state: 'disconnected', reason });
  }

  send(frame: ExtensionFrame): boolean {
    if (this.socket?.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** A pong from the relay: the link is alive. */
  pong(): void {
    this.awaitingPong = false;
  }

  private dial(): void {
    const url = this.url;
    if (!url) return;
    this.setState({ state: 'connecting' });
    let socket: SocketLike;
    try {
      socket = this.options.open(url);
    } catch (error) {
      this.setState({ state: 'error', reason: `Cannot open ${url}: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.setState({ state: 'connected' });
      this.startHeartbeat();
      this.options.onOpen();
    };
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') this.options.onText(event.data);
    };
    socket.onerror = () => undefined; // onclose follows with the code
    socket.onclose = (event) => this.lost(`No relay answers at ${url}${event.code && event.code !== 1006 ? ` (closed: ${event.code} ${event.reason})` : ''}. Is \`npx jawad mcp\` or \`npx jawad bridge\` running?`);
  }

  private lost(reason: string): void {
    this.stopHeartbeat();
    this.socket = undefined;
    if (!this.url) return;
    this.setState({ state: 'disconnected', reason: `${reason} Retrying…` });
    const delay = backoffDelay(this.attempt++, this.options.backoffMs);
    this.retryTimer = setTimeout(() => this.dial(), delay);
  }

  private startHeartbeat(): void {
    const period = this.options.heartbeatMs ?? HEARTBEAT_MS;
    this.awaitingPong = false;
    this.heartbeat = setInterval(() => {
      if (this.awaitingPong) {
        const socket = this.socket;
        if (socket) socket.onclose = null;
        socket?.close(4000, 'no pong');
        this.lost('The relay stopped answering pings.');
        return;
      }
      this.awaitingPong = true;
      this.send({ type: 'ping', t: (this.options.now ?? Date.now)() });
    }, period);
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private setState(state: LinkState): void {
    this.lastState = state;
    this.options.onState(state);
  }
}
