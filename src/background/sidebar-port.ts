import type { Runtime } from 'webextension-polyfill';
import {
  BackgroundEvent,
  newRequestId,
  parseSidebarRequest,
  REQUEST_ID_PATTERN,
  requestIdOf,
  toErrorPayload,
  type SidebarRequest,
  type SidebarRequestType,
} from '../protocol';
import type { Handler, HandlerContext, HandlerTable } from './handlers';
import { isSidebarPort, type ExtensionIdentity } from './messenger';

/** The open sidebars (one per browser window) and the dispatch of their messages. */
export class SidebarPorts {
  private readonly ports = new Set<Runtime.Port>();

  constructor(
    private readonly handlers: HandlerTable,
    private readonly self: ExtensionIdentity,
    /** Start-up work (marking interrupted answers) that must finish before any request is served. */
    private readonly ready: Promise<unknown> = Promise.resolve(),
  ) {}

  /** Accepts a connection if, and only if, it is this extension's own sidebar. */
  accept(port: Runtime.Port): boolean {
    if (!isSidebarPort(port, this.self)) {
      port.disconnect();
      return false;
    }
    this.ports.add(port);
    port.onMessage.addListener((raw: unknown) => void this.dispatch(port, raw));
    port.onDisconnect.addListener(() => this.ports.delete(port));
    return true;
  }

  broadcast(event: BackgroundEvent): void {
    for (const port of this.ports) send(port, event);
  }

  get size(): number {
    return this.ports.size;
  }

  /** Validates, routes to the handler table, and turns any failure into an ERROR reply. */
  async dispatch(port: Runtime.Port, raw: unknown): Promise<void> {
    let request: SidebarRequest;
    try {
      request = parseSidebarRequest(raw);
    } catch (error) {
      send(port, errorEvent(error, requestIdOf(raw)));
      return;
    }
    await this.ready.catch(() => undefined);
    const context: HandlerContext = { reply: (event) => send(port, event), broadcast: (event) => this.broadcast(event) };
    try {
      // The table is exhaustive by type; TypeScript cannot correlate the union member with its
      // handler through an index, hence the one cast.
      const handler = this.handlers[request.type] as Handler<SidebarRequestType>;
      await handler(request, context);
    } catch (error) {
      send(port, errorEvent(error, request.requestId));
    }
  }
}

function errorEvent(error: unknown, requestId: string | undefined): BackgroundEvent {
  const id = requestId && REQUEST_ID_PATTERN.test(requestId) ? requestId : newRequestId('error');
  return { type: 'ERROR', requestId: id, payload: toErrorPayload(error) };
}

function send(port: Runtime.Port, event: BackgroundEvent): void {
  try {
    port.postMessage(BackgroundEvent.parse(event));
  } catch {
    // The sidebar closed between the check and the post; it reloads state when it reconnects.
  }
}
