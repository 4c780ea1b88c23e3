/**
 * An agent's side of the bridge: hello (with a token once paired), then `{id, type, params}`
 * commands answered `{id, success, data | error}`. `jawad mcp` uses it against its own relay;
 * the tests use it as a stand-in for a coding agent.
 */
import { randomInt } from 'node:crypto';
import { WebSocket } from 'ws';
import type { AgentResponse, BridgeCommandType, RelayToAgent } from '../../src/protocol/bridge';

export interface AgentClientOptions {
  url: string;
  name: string;
  /** Shown in Jawad's pairing request; default: a fresh random one. */
  code?: string;
  token?: string;
  /** A pairing or a permission prompt is waiting on the user (`id`: the waiting command's). */
  onPending?: (message: string, id?: string | number) => void;
}

/** Called each time Jawad says the command waits on the user (a permission prompt). */
export type PendingListener = (message: string) => void;

export type CommandResult = Exclude<AgentResponse, { pending: true }>;

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newPairingCode(): string {
  return Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

export class BridgeAgent {
  readonly code: string;
  token: string | undefined;
  private socket: WebSocket | undefined;
  private nextId = 1;
  private readonly waiting = new Map<string | number, { settle: (result: CommandResult) => void; onPending?: PendingListener }>();
  private pairedWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private paired = false;
  /** Answers to frames that had no readable id (malformed ones): the relay's or Jawad's error. */
  readonly orphans: CommandResult[] = [];

  constructor(private readonly options: AgentClientOptions) {
    this.code = options.code ?? newPairingCode();
    this.token = options.token;
  }

  get isPaired(): boolean {
    return this.paired;
  }

  /** Connects and says hello; resolves once the socket is open. */
  async connect(): Promise<void> {
    const socket = new WebSocket(this.options.url);
    this.socket = socket;
    this.paired = false;
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', (error) => reject(new Error(`Cannot reach the bridge at ${this.options.url}: ${error.message}`)));
    });
    socket.on('message', (data) => this.receive(data.toString()));
    socket.on('close', () => {
      for (const { settle } of this.waiting.values()) settle({ id: null, success: false, code: 'DISCONNECTED', error: 'The bridge connection closed.' });
      this.waiting.clear();
      for (const waiter of this.pairedWaiters.splice(0)) waiter.reject(new Error('The bridge connection closed before pairing.'));
    });
    this.sendRaw(JSON.stringify({ type: 'hello', name: this.options.name, code: this.code, ...(this.token ? { token: this.token } : {}) }));
  }

  /** Resolves when Jawad pairs this client (the user approved, or the token was recognised). */
  whenPaired(timeoutMs = 60_000): Promise<void> {
    if (this.paired) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Not paired within ${Math.round(timeoutMs / 1000)} s: approve "${this.options.name}" (code ${this.code}) in Jawad.`)), timeoutMs);
      this.pairedWaiters.push({
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
    });
  }

  /** One command; the promise waits through permission prompts (the user decides, no timeout). */
  command(type: BridgeCommandType | string, params: Record<string, unknown> = {}, onPending?: PendingListener): Promise<CommandResult> {
    const id = this.nextId++;
    return this.send({ id, type, params }, onPending);
  }

  /** Sends any frame with an id and waits for its answer (tests send malformed ones on purpose). */
  send(frame: { id: string | number } & Record<string, unknown>, onPending?: PendingListener): Promise<CommandResult> {
    return new Promise((resolve) => {
      this.waiting.set(frame.id, { settle: resolve, ...(onPending ? { onPending } : {}) });
      this.sendRaw(JSON.stringify(frame));
    });
  }

  sendRaw(text: string): void {
    this.socket?.send(text);
  }

  close(): void {
    this.socket?.close();
  }

  private receive(text: string): void {
    const frame = JSON.parse(text) as AgentResponse | RelayToAgent;
    if ('type' in frame) return this.onRelay(frame);
    if ('pending' in frame) {
      this.waiting.get(frame.id)?.onPending?.(frame.message);
      return this.options.onPending?.(frame.message, frame.id);
    }
    const waiter = frame.id === null ? undefined : this.waiting.get(frame.id);
    if (!waiter || frame.id === null) {
      this.orphans.push(frame);
      return;
    }
    this.waiting.delete(frame.id);
    waiter.settle(frame);
  }

  private onRelay(frame: RelayToAgent): void {
    if (frame.type === 'paired') {
      this.paired = true;
      if (frame.token) this.token = frame.token;
      for (const waiter of this.pairedWaiters.splice(0)) waiter.resolve();
    } else if (frame.type === 'refused') {
      this.paired = false;
      for (const waiter of this.pairedWaiters.splice(0)) waiter.reject(new Error(`Jawad refused this client: ${frame.reason}`));
    } else if (frame.type === 'pairing') {
      this.options.onPending?.(frame.message);
    }
  }
}
