/**
 * The relay `jawad bridge` and `jawad mcp` serve on loopback: Jawad's background connects to it
 * (seed 004: the extension is the WebSocket client), and so do agents. The relay tags each
 * agent's frames with its connection id for the extension and hands the answers back; it decides
 * nothing — pairing, permissions and isolation are the extension's.
 *
 * Who may connect: the extension's own origin (chrome-extension://, moz-extension://) as the
 * extension; programs without an Origin header as agents; never a web page (a page can open a
 * WebSocket to localhost, so an http(s) Origin is refused).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { AgentHello, MAX_COMMAND_FRAME_CHARS, MAX_RESPONSE_FRAME_CHARS, type AgentResponse, type ExtensionFrame, type RelayFrame, type RelayToAgent } from '../../src/protocol/bridge';

export interface RelayOptions {
  port: number;
  host?: string;
  log?: (line: string) => void;
}

interface AgentLink {
  socket: WebSocket;
  hello?: AgentHello;
  /** Commands passed to Jawad and not answered yet: if Jawad goes away, they are answered here. */
  inFlight: Set<string | number>;
}

const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension):\/\//;

export class Relay {
  private server: WebSocketServer | undefined;
  private extension: WebSocket | undefined;
  private readonly agents = new Map<string, AgentLink>();
  private readonly log: (line: string) => void;
  private extensionWaiters: Array<() => void> = [];

  constructor(private readonly options: RelayOptions) {
    this.log = options.log ?? (() => undefined);
  }

  get url(): string {
    return `ws://localhost:${this.port}`;
  }

  get port(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : this.options.port;
  }

  get extensionConnected(): boolean {
    return this.extension?.readyState === WebSocket.OPEN;
  }

  /** Listens; rejects with a clear message when the port is taken. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // Frames are size-checked here with a clear answer; ws's own limit would only close the socket.
      const server = new WebSocketServer({ host: this.options.host ?? '127.0.0.1', port: this.options.port, maxPayload: MAX_RESPONSE_FRAME_CHARS * 4 });
      server.once('listening', () => {
        this.server = server;
        resolve();
      });
      server.once('error', (error: NodeJS.ErrnoException) => {
        reject(new Error(error.code === 'EADDRINUSE' ? `Port ${this.options.port} is in use: another bridge runs there, or pick one with --port.` : error.message));
      });
      server.on('connection', (socket, request) => this.accept(socket, request));
    });
  }

  async close(): Promise<void> {
    for (const client of this.server?.clients ?? []) client.terminate();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
    this.server = undefined;
  }

  /** Resolves once the extension is connected (or at once if it is). */
  waitForExtension(timeoutMs: number): Promise<boolean> {
    if (this.extensionConnected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.extensionWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private accept(socket: WebSocket, request: IncomingMessage): void {
    const origin = request.headers.origin;
    if (origin && EXTENSION_ORIGIN.test(origin)) return this.acceptExtension(socket, origin);
    if (origin) {
      this.log(`Refused a connection from ${origin}: web pages may not use the bridge.`);
      socket.close(1008, 'Web pages may not use the Jawad bridge.');
      return;
    }
    this.acceptAgent(socket);
  }

  private acceptExtension(socket: WebSocket, origin: string): void {
    if (this.extension) this.extension.close(1000, 'Replaced by a newer connection.');
    this.extension = socket;
    this.log(`Jawad connected from ${origin}.`);
    socket.on('message', (data) => this.fromExtension(data));
    socket.on('close', () => {
      if (this.extension !== socket) return;
      this.extension = undefined;
      this.log('Jawad disconnected.');
      for (const agent of this.agents.values()) {
        sendTo(agent.socket, { type: 'status', extension: 'disconnected' });
        for (const id of agent.inFlight) reply(agent.socket, id, 'NOT_CONNECTED', 'Jawad disconnected before answering (turned off, the kill switch, or the browser closed).');
        agent.inFlight.clear();
      }
    });
    for (const waiter of this.extensionWaiters.splice(0)) waiter();
    // Agents that said hello before (or while the extension was away) introduce themselves again.
    for (const [client, agent] of this.agents) if (agent.hello) this.toExtension(clientHello(client, agent.hello));
  }

  private acceptAgent(socket: WebSocket): void {
    const client = `c-${randomUUID().slice(0, 8)}`;
    const agent: AgentLink = { socket, inFlight: new Set() };
    this.agents.set(client, agent);
    socket.on('message', (data) => this.fromAgent(client, agent, data));
    socket.on('close', () => {
      this.agents.delete(client);
      this.toExtension({ type: 'client.bye', client });
    });
  }

  private fromAgent(client: string, agent: AgentLink, data: RawData): void {
    const text = data.toString();
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return reply(agent.socket, null, 'BAD_FRAME', 'The frame is not JSON.');
    }
    // Read (ws caps frames) so the refusal can carry the command's id; never passed on to Jawad.
    if (text.length > MAX_COMMAND_FRAME_CHARS) return reply(agent.socket, idOf(frame), 'TOO_LARGE', `The frame is ${text.length} characters; the limit is ${MAX_COMMAND_FRAME_CHARS}.`);
    if (!agent.hello) {
      const hello = AgentHello.safeParse(frame);
      if (!hello.success) return reply(agent.socket, idOf(frame), 'NOT_PAIRED', 'Say hello first: {"type":"hello","name":"my-agent","code":"AB12CD"} (code: 4–8 capital letters or digits you also print).');
      agent.hello = hello.data;
      if (!this.extensionConnected) sendTo(agent.socket, { type: 'status', extension: 'disconnected' });
      this.toExtension(clientHello(client, hello.data));
      return;
    }
    if (!this.extensionConnected) {
      return reply(agent.socket, idOf(frame), 'NOT_CONNECTED', `Jawad is not connected to this bridge: turn the bridge on in Jawad (Bridge view or popup) with the URL ${this.url}.`);
    }
    const id = idOf(frame);
    if (id !== null) agent.inFlight.add(id);
    this.toExtension({ type: 'command', client, command: frame });
  }

  private fromExtension(data: RawData): void {
    let frame: ExtensionFrame;
    try {
      frame = JSON.parse(data.toString()) as ExtensionFrame;
    } catch {
      this.log('Jawad sent a frame that is not JSON; ignored.');
      return;
    }
    if (frame.type === 'ping') return this.toExtension({ type: 'pong', t: frame.t });
    if (frame.type === 'extension.hello') return this.log(`Jawad (${frame.browser}) said hello.`);
    const agent = this.agents.get(frame.client);
    if (!agent) return;
    if (frame.type === 'response') {
      if (!('pending' in frame.response) && frame.response.id !== null) agent.inFlight.delete(frame.response.id);
      sendTo(agent.socket, frame.response);
    }
    else if (frame.type === 'pairing') sendTo(agent.socket, { type: 'pairing', state: 'pending', message: 'Waiting for the user to approve this client in Jawad.' });
    else if (frame.type === 'paired') {
      // Kept so that a reconnecting Jawad (its background restarted) recognises the agent without a new pairing.
      if (frame.token && agent.hello) agent.hello = { ...agent.hello, token: frame.token };
      sendTo(agent.socket, { type: 'paired', ...(frame.token ? { token: frame.token } : {}) });
    }
    else if (frame.type === 'refused') sendTo(agent.socket, { type: 'refused', reason: frame.reason });
  }

  private toExtension(frame: RelayFrame): void {
    if (this.extension?.readyState === WebSocket.OPEN) this.extension.send(JSON.stringify(frame));
  }
}

function clientHello(client: string, hello: AgentHello): RelayFrame {
  return { type: 'client.hello', client, name: hello.name, code: hello.code, ...(hello.token ? { token: hello.token } : {}) };
}

function idOf(frame: unknown): string | number | null {
  const id = (frame as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function reply(socket: WebSocket, id: string | number | null, code: string, error: string): void {
  sendTo(socket, { id, success: false, code, error });
}

function sendTo(socket: WebSocket, frame: AgentResponse | RelayToAgent): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}
