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

/**
 * Posts an event after validating it (which also strips fields the sidebar must not see, such as
 * an API key). An event that fails validation is a bug: the sidebar gets an ERROR instead of
 * waiting forever for a reply that will never come.
 */
function send(port: Runtime.Port, event: BackgroundEvent): void {
  const checked = BackgroundEvent.safeParse(event);
  const outgoing: BackgroundEvent = checked.success
    ? checked.data
    : {
        type: 'ERROR',
        requestId: event.requestId,
        payload: { code: 'EXECUTION_ERROR', message: `Jawad's background produced an invalid ${event.type} message. Please report this bug.` },
      };
  if (!checked.success) console.error('Jawad: invalid outgoing event', event.type, checked.error.issues);
  try {
    port.postMessage(outgoing);
  } catch {
    // The sidebar closed between the check and the post; it reloads state when it reconnects.
  }
}
