import browser, { type Runtime } from 'webextension-polyfill';
import {
  newRequestId,
  parseBackgroundEvent,
  SIDEBAR_PORT_NAME,
  type BackgroundEvent,
  type SidebarRequest,
  type SidebarRequestType,
} from '../protocol';

/** idle: the browser stopped the background and nothing needs it; the next send wakes it. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'idle';

/** A request as the UI writes it: the client adds the requestId. */
export type Outgoing = { [T in SidebarRequestType]: Omit<Extract<SidebarRequest, { type: T }>, 'requestId'> & { requestId?: string } }[SidebarRequestType];

export interface PortClientOptions {
  onEvent: (event: BackgroundEvent) => void;
  onState: (state: ConnectionState) => void;
  /** Called after every (re)connect, to resync state the background may have lost. */
  onConnected: () => void;
  /** True while the sidebar waits on the background (an answer streams): reconnect at once. */
  mustStayConnected: () => boolean;
  /**
   * The Port dropped: the browser stopped the background, and whatever lived only in its memory
   * (open prompts) is gone. Called after the reconnect was decided, so it can clear what made the
   * sidebar wait without stopping the reconnect that fetches the true state.
   */
  onLost?: () => void;
  /** Reports events the background sent that failed validation (a bug, never silent). */
  onInvalidEvent?: (error: unknown) => void;
  connect?: () => Runtime.Port;
}

const KEEPALIVE_MS = 20_000;
const MAX_BACKOFF_MS = 2_000;

/**
 * The sidebar's end of the long-lived Port. When the browser stops the background (Chrome's idle
 * service worker, Firefox's event page) the Port disconnects. If an answer was streaming, this
 * reconnects at once (waking the background, which marks the answer interrupted); otherwise it lets
 * the background sleep and reconnects on the next send. Whatever is sent meanwhile is queued and
 * delivered after the reconnect — nothing the user sends is dropped.
 */
export class PortClient {
  private port: Runtime.Port | undefined;
  private readonly outbox: SidebarRequest[] = [];
  private attempts = 0;
  /** True once the background has answered on the current Port: connect() alone proves nothing. */
  private answered = false;
  private keepalive: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private idle = false;

  constructor(private readonly options: PortClientOptions) {}

  start(): void {
    this.options.onState('connecting');
    this.open();
  }

  /** Sends now, or queues until the Port is back. Returns the requestId. */
  send(message: Outgoing): string {
    const request = { ...message, requestId: message.requestId ?? newRequestId() } as SidebarRequest;
    if (this.port) {
      this.post(request);
    } else {
      this.outbox.push(request);
      if (this.idle) this.wake();
    }
    return request.requestId;
  }

  /** Pings while an answer streams: Chrome stops a service worker that hears nothing for 30 s. */
  setKeepalive(active: boolean): void {
    if (active && this.keepalive === undefined) {
      this.keepalive = setInterval(() => this.send({ type: 'PING', payload: {} }), KEEPALIVE_MS);
    } else if (!active && this.keepalive !== undefined) {
      clearInterval(this.keepalive);
      this.keepalive = undefined;
    }
  }

  close(): void {
    this.closed = true;
    this.setKeepalive(false);
    this.port?.disconnect();
  }

  private open(): void {
    let port: Runtime.Port;
    try {
      port = this.options.connect ? this.options.connect() : browser.runtime.connect({ name: SIDEBAR_PORT_NAME });
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.port = port;
    this.answered = false;
    port.onMessage.addListener((raw: unknown) => this.receive(raw));
    port.onDisconnect.addListener(() => {
      if (this.port === port) this.port = undefined;
      if (this.closed) return;
      if (this.outbox.length > 0 || this.options.mustStayConnected()) this.scheduleReconnect();
      else this.sleep();
      this.options.onLost?.();
    });
    this.options.onConnected();
    for (const request of this.outbox.splice(0)) this.post(request);
  }

  private post(request: SidebarRequest): void {
    try {
      this.port!.postMessage(request);
    } catch {
      // The Port died under us: keep the message and reconnect.
      this.outbox.unshift(request);
      this.port = undefined;
      this.scheduleReconnect();
    }
  }

  private receive(raw: unknown): void {
    if (!this.answered) {
      this.answered = true;
      this.attempts = 0;
      this.options.onState('connected');
    }
    let event: BackgroundEvent;
    try {
      event = parseBackgroundEvent(raw);
    } catch (error) {
      this.options.onInvalidEvent?.(error);
      return;
    }
    this.options.onEvent(event);
  }

  private sleep(): void {
    this.idle = true;
    this.setKeepalive(false);
    this.options.onState('idle');
  }

  private wake(): void {
    this.idle = false;
    this.options.onState('reconnecting');
    this.open();
  }

  private scheduleReconnect(): void {
    this.options.onState('reconnecting');
    // The first try at once: a stopped background starts again for it. Later ones back off, in
    // case the extension is being reloaded or disabled.
    const attempt = this.attempts++;
    const delay = attempt === 0 ? 0 : Math.min(MAX_BACKOFF_MS, 50 * 2 ** (attempt - 1));
    setTimeout(() => {
      if (!this.closed && !this.port) this.open();
    }, delay);
  }
}
