/**
 * The external agent bridge: pairing, one principal per paired client, routing, and every command
 * through the one step gate (gate/step-gate.ts) — a client's step is judged, asked about and
 * bound exactly as the built-in agent's.
 *
 * Who answers a client's prompts: the user (USER), on the client's behalf, in the sidebar or the
 * popup. The client never can (there is no bridge command for it) and neither can another client
 * (the broker accepts only the task's `answeredBy`, which is USER for every client task).
 */
import type { AgentStep, BackgroundEvent } from '../../protocol';
import * as z from 'zod/mini';
import {
  ActivityEntry,
  RelayFrame,
  type AgentResponse,
  type BridgeStatus,
  type ExtensionFrame,
  type PairingRequest,
} from '../../protocol/bridge';
import { newRequestId } from '../../protocol';
import type { BridgeConnectionSettings, BridgeStore } from '../../db/bridge-store';
import type { BridgeClientRow } from '../../db/database';
import { USER } from '../gate/permission-broker';
import type { GatedTask, StepGate, TaskTab } from '../gate/step-gate';
import type { ToolOutcome } from '../tools/registry';
import { CommandError, parseFrameText, planCommand, type ToolCallPlan } from './commands';
import type { LinkState, RelayConnection } from './connection';
import { TabOwners, type TabOwnersState } from './tab-owners';
import { OneAtATime } from '../../db/one-at-a-time';

const ACTIVITY_KEPT = 200;
/** An entry's detail is for a glance in the log; a whole error page would only fill storage. */
const DETAIL_KEPT = 300;
/** Keys in the session area: kept for the browser session, like session grants. */
const OWNERS_KEY = 'bridge.tabOwners';
const ACTIVITY_KEY = 'bridge.activity';
const ActivityLog = z.array(ActivityEntry);
const STATUS_EVERY_MS = 100;
/** Commands one client may have waiting; more is a flood and is refused at once. */
export const MAX_QUEUED = 64;

/** One agent connection the relay told us about. */
interface Session {
  /** The relay's connection id. */
  connection: string;
  name: string;
  code: string;
  paired?: BridgeClientRow;
  gated?: GatedTask;
  controller: AbortController;
  queue: Array<{ raw: unknown; received: number }>;
  busy: boolean;
  /** The command now in the gate (its id answers the pending notice). */
  current?: ToolCallPlan;
  /** The tab the current command was routed to. */
  tab?: TaskTab;
  eventRequestId: string;
  /**
   * Settles once its hello is judged (a token is looked up): commands that follow the hello at
   * once, as when the relay re-introduces its agents to a restarted background, wait for it.
   */
  introduced: Promise<void>;
}

export interface BridgeTabs {
  active(): Promise<TaskTab | undefined>;
  get(tabId: number): Promise<TaskTab | undefined>;
  /** Puts a client's tab in its own group `Agent(<name>)` where the browser has tab groups. */
  group(tabId: number, title: string): Promise<void>;
}

export interface BridgeDeps {
  store: Pick<BridgeStore, 'settings' | 'saveSettings' | 'pair' | 'byToken' | 'clients' | 'unpair'>;
  revokeGrants: (principal: string) => Promise<void>;
  gate: StepGate;
  connection: (handlers: { onState: (state: LinkState) => void; onOpen: () => void; onText: (text: string) => void }) => RelayConnection;
  tabs: BridgeTabs;
  browserName: string;
  /**
   * Where each client's scope (its tabs) and the activity log outlive a stopped background:
   * storage.session, which only the extension's own pages read (a Map in tests).
   */
  sessionArea: { get(key: string): Promise<unknown>; set(key: string, value: unknown): Promise<void> };
  /** Keeps the background alive while the bridge is on (src/platform). */
  keepAlive: (on: boolean) => void;
  broadcast: (event: BackgroundEvent) => void;
  now?: () => number;
}

export class BridgeService {
  private readonly sessions = new Map<string, Session>();
  private readonly pairing = new Map<string, PairingRequest>();
  private readonly prompts = new Map<string, { step: AgentStep; clientName: string }>();
  private activity: ActivityEntry[] = [];
  private activityUnsaved = false;
  private owners = new TabOwners();
  private readonly link: RelayConnection;
  private settings: BridgeConnectionSettings = { enabled: false, url: '' };
  private readonly settingsChanges = new OneAtATime();
  private linkState: LinkState = { state: 'disconnected' };
  private readonly now: () => number;
  private pendingBroadcast = false;

  constructor(private readonly deps: BridgeDeps) {
    this.now = deps.now ?? Date.now;
    this.link = deps.connection({
      onState: (state) => {
        this.linkState = state;
        if (state.state !== 'connected') this.dropSessions('The relay connection was lost.');
        this.changed();
      },
      onOpen: () => this.link.send({ type: 'extension.hello', browser: deps.browserName }),
      onText: (text) => void this.onText(text).catch((error: unknown) => console.error('Jawad bridge: a frame could not be handled', error)),
    });
  }

  /** At background start: reconnect when the user left the bridge on. */
  async start(): Promise<void> {
    await this.restore();
    this.settings = await this.deps.store.settings();
    this.deps.keepAlive(this.settings.enabled);
    if (this.settings.enabled) this.link.start(this.settings.url);
    this.changed();
  }

  /** What a stopped background left: the clients' tabs and the log (entries logged since come after). */
  private async restore(): Promise<void> {
    const area = this.deps.sessionArea;
    const [owners, activity] = await Promise.all([area.get(OWNERS_KEY).catch(() => undefined), area.get(ACTIVITY_KEY).catch(() => undefined)]);
    this.owners = new TabOwners(owners as TabOwnersState | undefined);
    const kept = ActivityLog.safeParse(activity);
    if (kept.success) this.activity = [...kept.data, ...this.activity].slice(-ACTIVITY_KEPT);
  }

  /** The keep-alive fired: reconnect if the bridge is on and the link is down (never drops a live one). */
  async wake(): Promise<void> {
    this.settings = await this.deps.store.settings();
    if (this.settings.enabled && this.link.state.state !== 'connected' && this.link.state.state !== 'connecting') this.link.start(this.settings.url);
  }

  async connect(): Promise<void> {
    await this.changeSettings({ enabled: true });
    this.deps.keepAlive(true);
    this.link.start(this.settings.url);
  }

  async disconnect(reason = 'Turned off.'): Promise<void> {
    await this.changeSettings({ enabled: false });
    this.deps.keepAlive(false);
    this.link.stop(reason);
  }

  async updateUrl(url: string): Promise<void> {
    await this.changeSettings({ url });
    if (this.settings.enabled) this.link.start(url);
    else this.changed();
  }

  /**
   * One read-modify-write of the connection settings at a time: Save then Connect clicked at once
   * must not let one write over the other (the URL saved, then the old one connected to).
   */
  private changeSettings(change: Partial<BridgeConnectionSettings>): Promise<void> {
    return this.settingsChanges.run(async () => {
      this.settings = await this.deps.store.saveSettings({ ...(await this.deps.store.settings()), ...change });
    });
  }

  /** The kill switch: every command of every client stops now, prompts are answered deny-all, the link is cut. */
  async kill(): Promise<void> {
    this.dropSessions('The user pressed the kill switch.');
    this.pairing.clear();
    await this.disconnect('Stopped with the kill switch.');
    this.log({ clientName: 'all clients', command: 'kill switch', decision: 'user', outcome: 'refused', detail: 'Disconnected and stopped everything.' });
  }

  async approvePairing(connection: string): Promise<void> {
    const session = this.sessions.get(connection);
    const request = this.pairing.get(connection);
    this.pairing.delete(connection);
    if (!session || !request) throw new CommandError('BAD_FRAME', 'That client is no longer waiting to pair.');
    const { client, token } = await this.deps.store.pair(session.name, this.now());
    session.paired = client;
    this.send({ type: 'paired', client: connection, token, clientId: client.id });
    this.log({ clientName: session.name, command: 'pair', decision: 'user', outcome: 'ok', detail: 'Paired by the user.' });
  }

  refusePairing(connection: string): void {
    this.pairing.delete(connection);
    this.send({ type: 'refused', client: connection, reason: 'The user refused to pair this client.' });
    const session = this.sessions.get(connection);
    this.log({ clientName: session?.name ?? connection, command: 'pair', decision: 'user', outcome: 'refused', detail: 'Pairing refused.' });
  }

  /** Forgets a paired client: its token stops working, its grants go, its tabs are free. */
  async unpair(clientId: string): Promise<void> {
    await this.deps.store.unpair(clientId);
    await this.deps.revokeGrants(clientId);
    for (const session of this.sessions.values()) {
      if (session.paired?.id !== clientId) continue;
      session.controller.abort();
      session.paired = undefined;
      session.gated = undefined;
      this.send({ type: 'refused', client: session.connection, reason: 'The user unpaired this client.' });
    }
    this.owners.release(clientId);
    this.saveOwners();
    this.changed();
  }

  async status(): Promise<BridgeStatus> {
    const paired = await this.deps.store.clients();
    const live = new Set([...this.sessions.values()].flatMap((session) => (session.paired ? [session.paired.id] : [])));
    const state = !this.settings.enabled ? 'off' : this.linkState.state === 'connected' && live.size > 0 ? 'paired' : this.linkState.state;
    return {
      enabled: this.settings.enabled,
      url: this.settings.url,
      state,
      ...(this.linkState.reason ? { reason: this.linkState.reason } : {}),
      clients: paired.map((client) => ({ id: client.id, name: client.name, connected: live.has(client.id), pairedAt: client.pairedAt })),
      pairing: [...this.pairing.values()],
      prompts: [...this.prompts.values()].map(({ step }) => step),
      activity: this.activity.slice(-ACTIVITY_KEPT),
    };
  }

  /** Every command of every client with its Harbor decision, oldest first. */
  activityLog(): ActivityEntry[] {
    return [...this.activity];
  }

  /** Everything the gate emits for client tasks: the activity log, prompts and the pending notice. */
  onGateEvent(event: BackgroundEvent): void {
    if (event.type !== 'PERMISSION_REQUEST' && event.type !== 'ACTION_LOG_UPDATE') return;
    const session = [...this.sessions.values()].find((candidate) => candidate.eventRequestId === event.requestId);
    const { step } = event.payload;
    if (event.type === 'PERMISSION_REQUEST' && session) {
      this.prompts.set(step.id, { step, clientName: session.name });
      const message = `Waiting for the user to allow ${step.tool}${step.site ? ` on ${step.site}` : ''} in Jawad (${step.reasons.join(' ') || 'permission needed'}).`;
      if (session.current) this.respond(session, { id: session.current.id, pending: true, message });
      this.changed();
    } else if (step.status !== 'asking' && this.prompts.delete(step.id)) {
      this.changed();
    }
  }

  private async onText(text: string): Promise<void> {
    let frame: RelayFrame;
    try {
      const parsed = RelayFrame.safeParse(parseFrameText(text, Number.MAX_SAFE_INTEGER));
      if (!parsed.success) throw new CommandError('BAD_FRAME', 'Unknown relay frame.');
      frame = parsed.data;
    } catch (error) {
      this.log({ clientName: 'relay', command: 'frame', decision: '-', outcome: 'failed', detail: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (frame.type === 'pong') this.link.pong();
    else if (frame.type === 'client.hello') await this.hello(frame);
    else if (frame.type === 'client.bye') this.bye(frame.client);
    else if (frame.type === 'command') this.enqueue(frame.client, frame.command);
    else this.log({ clientName: frame.client ?? 'relay', command: 'frame', decision: '-', outcome: 'failed', detail: frame.error });
  }

  private async hello(frame: Extract<RelayFrame, { type: 'client.hello' }>): Promise<void> {
    let introduced!: () => void;
    const session: Session = {
      connection: frame.client,
      name: frame.name,
      code: frame.code,
      controller: new AbortController(),
      queue: [],
      busy: false,
      eventRequestId: newRequestId('bridge'),
      introduced: new Promise((done) => (introduced = done)),
    };
    this.sessions.set(frame.client, session);
    try {
      await this.judgeHello(session, frame);
    } finally {
      introduced();
    }
  }

  private async judgeHello(session: Session, frame: Extract<RelayFrame, { type: 'client.hello' }>): Promise<void> {
    const known = frame.token ? await this.deps.store.byToken(frame.token) : undefined;
    if (known) {
      session.paired = known;
      session.name = known.name;
      this.send({ type: 'paired', client: frame.client, clientId: known.id });
      this.log({ clientName: known.name, command: 'pair', decision: 'token', outcome: 'ok', detail: 'Reconnected with its token.' });
      return;
    }
    this.pairing.set(frame.client, { client: frame.client, name: frame.name, code: frame.code, at: this.now() });
    this.send({ type: 'pairing', client: frame.client, state: 'pending' });
    this.changed();
  }

  private bye(connection: string): void {
    const session = this.sessions.get(connection);
    if (!session) return;
    session.controller.abort();
    this.sessions.delete(connection);
    this.pairing.delete(connection);
    this.changed();
  }

  private enqueue(connection: string, raw: unknown): void {
    const session = this.sessions.get(connection);
    if (!session) return this.send({ type: 'response', client: connection, response: { id: readId(raw), success: false, code: 'NOT_PAIRED', error: 'Say hello first: {"type":"hello","name":…,"code":…}.' } });
    void session.introduced.then(() => this.admit(session, raw));
  }

  private admit(session: Session, raw: unknown): void {
    if (!session.paired) {
      this.respond(session, { id: readId(raw), success: false, code: 'NOT_PAIRED', error: 'This client is not paired: the user must approve it in Jawad first.' });
      return;
    }
    if (session.queue.length >= MAX_QUEUED) {
      const error = `Too many commands waiting (${MAX_QUEUED}); wait for answers before sending more.`;
      this.respond(session, { id: readId(raw), success: false, code: 'BUSY', error });
      this.log({ clientName: session.name, command: commandName(raw), decision: '-', outcome: 'refused', detail: error });
      return;
    }
    session.queue.push({ raw, received: this.now() });
    if (!session.busy) void this.drain(session).catch((error: unknown) => console.error('Jawad bridge: a command could not be run', error));
  }

  /** One command at a time per client, in order: a client's steps are a sequence like the agent's. */
  private async drain(session: Session): Promise<void> {
    session.busy = true;
    try {
      for (let next = session.queue.shift(); next; next = session.queue.shift()) {
        const response = await this.run(session, next.raw).catch((error: unknown) => ({
          id: readId(next!.raw),
          success: false as const,
          code: error instanceof CommandError ? error.code : 'EXECUTION_ERROR',
          error: error instanceof Error ? error.message : String(error),
        }));
        session.current = undefined;
        this.respond(session, response);
        if (!this.sessions.has(session.connection)) return;
      }
    } finally {
      session.busy = false;
    }
  }

  private async run(session: Session, raw: unknown): Promise<AgentResponse> {
    const principal = session.paired!.id;
    let plan: ToolCallPlan;
    try {
      plan = planCommand(raw);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      this.log({ clientName: session.name, command: commandName(raw), decision: '-', outcome: 'refused', detail: error.message });
      return { id: error.id ?? readId(raw), success: false, code: error.code, error: error.message };
    }
    if (plan.namedTab !== undefined && !this.owners.mayUse(plan.namedTab, principal)) return this.refuse(session, plan, 'That tab belongs to another client.');
    const tab = (await this.routeTab(principal)) ?? (isTabCommand(plan) ? await this.noTab() : undefined);
    if (!tab) return this.refuse(session, plan, 'No tab this client may use: the active tab belongs to another client. Open one with {"type":"tab","params":{"action":"new","url":…}}.');
    session.tab = tab;
    if (!session.gated) {
      session.gated = await this.deps.gate.open(this.gateTask(session, principal), '');
      // A new task (a restarted background, a reconnected client): the tabs the client holds are in its scope again.
      for (const id of this.owners.tabsOf(principal)) session.gated.scope.adoptTab(id);
    }
    session.current = plan;
    const before = session.gated.steps.length;
    const end = await this.deps.gate.step(session.gated, { name: plan.tool, arguments: JSON.stringify(plan.args) });
    const step = session.gated.steps.length > before ? session.gated.steps.at(-1) : undefined;
    this.afterStep(session, principal, plan, tab, end.outcome);
    return this.answer(session, plan, step, end.outcome);
  }

  private gateTask(session: Session, principal: string) {
    return {
      principal,
      answeredBy: USER,
      conversationId: `bridge-${principal}`,
      messageId: session.connection,
      requestId: session.eventRequestId,
      eventRequestId: session.eventRequestId,
      signal: session.controller.signal,
      // run() routed this command's tab just before the gate asks for it.
      tab: async () => session.tab!,
    };
  }

  /**
   * Where a tab command (new, list, switch, close) stands when the client has no tab of its own
   * yet: no page at all, in the active window (so a new tab opens there), and nothing of the
   * other client's tab — not its URL, not a place in this client's scope.
   */
  private async noTab(): Promise<TaskTab> {
    return { id: NO_TAB, url: '', windowId: (await this.deps.tabs.active())?.windowId ?? -1 };
  }

  /** Seed 004's routing, never into another client's tab. */
  private async routeTab(principal: string): Promise<TaskTab | undefined> {
    const known = new Map<number, TaskTab>();
    const ids = [...new Set(this.owners.candidates(principal))];
    const found = await Promise.all(ids.map((id) => this.deps.tabs.get(id)));
    ids.forEach((id, index) => {
      const tab = found[index];
      if (tab) known.set(id, tab);
      else {
        this.owners.tabClosed(id);
        this.saveOwners();
      }
    });
    // The active tab is only the last resort: not asked for while the client has a tab of its own.
    const active = known.size > 0 ? undefined : await this.deps.tabs.active();
    if (active) known.set(active.id, active);
    const chosen = this.owners.route(principal, (id) => known.has(id), active?.id);
    if (chosen === undefined || !this.owners.mayUse(chosen, principal)) return undefined;
    return known.get(chosen);
  }

  private afterStep(session: Session, principal: string, plan: ToolCallPlan, tab: TaskTab, outcome: { success: boolean; data?: unknown } | undefined): void {
    if (!outcome?.success) return;
    if (['snapshot', 'close_tab', 'new_tab'].includes(plan.tool)) queueMicrotask(() => this.saveOwners());
    if (plan.tool === 'snapshot') this.owners.snapshotTaken(tab.id, principal);
    if (plan.tool === 'close_tab' && plan.namedTab !== undefined) this.owners.tabClosed(plan.namedTab);
    const opened = plan.tool === 'new_tab' ? (outcome.data as { id?: unknown } | undefined)?.id : undefined;
    if (typeof opened === 'number') {
      this.owners.claim(opened, principal);
      void this.deps.tabs.group(opened, `Agent(${session.name})`).catch(() => undefined);
    }
  }

  private answer(session: Session, plan: ToolCallPlan, step: AgentStep | undefined, outcome: ToolOutcome | undefined): AgentResponse {
    const decision = step?.decision ?? step?.verdict ?? '-';
    if (outcome?.success) {
      this.log({ clientName: session.name, command: plan.command, decision, outcome: 'ok', detail: step?.result?.summary ?? '' });
      return { id: plan.id, success: true, data: outcome.data, duration: outcome.duration };
    }
    const denied = step?.status === 'denied' || step?.status === 'stopped';
    const error = outcome?.error ?? step?.result?.error ?? { code: denied ? 'PERMISSION_DENIED' : 'EXECUTION_ERROR', message: step?.result?.summary ?? 'The command did not run.' };
    const code = denied ? 'PERMISSION_DENIED' : error.code;
    this.log({ clientName: session.name, command: plan.command, decision, outcome: denied ? 'denied' : 'failed', detail: error.message });
    return { id: plan.id, success: false, code, error: denied ? `Denied: ${step?.result?.summary ?? error.message}` : error.message };
  }

  private refuse(session: Session, plan: ToolCallPlan, reason: string): AgentResponse {
    this.log({ clientName: session.name, command: plan.command, decision: 'isolation', outcome: 'refused', detail: reason });
    return { id: plan.id, success: false, code: 'PERMISSION_DENIED', error: reason };
  }

  /** The relay link is gone (or killed): every client's task stops and its prompts are answered deny-all. */
  private dropSessions(reason: string): void {
    for (const session of this.sessions.values()) session.controller.abort(reason);
    this.sessions.clear();
    this.pairing.clear();
    this.prompts.clear();
  }

  private saveOwners(): void {
    void this.deps.sessionArea.set(OWNERS_KEY, this.owners.toJSON()).catch(() => undefined);
  }

  private respond(session: Session, response: AgentResponse): void {
    this.send({ type: 'response', client: session.connection, response });
  }

  private send(frame: ExtensionFrame): void {
    this.link.send(frame);
    if (frame.type !== 'response') this.changed();
  }

  private log(entry: Omit<ActivityEntry, 'at'>): void {
    this.activity.push({ at: this.now(), ...entry, detail: entry.detail.slice(0, DETAIL_KEPT) });
    if (this.activity.length > ACTIVITY_KEPT) this.activity.splice(0, this.activity.length - ACTIVITY_KEPT);
    this.activityUnsaved = true;
    this.changed();
  }

  /**
   * Tells every open sidebar and popup, and saves the log, at most every STATUS_EVERY_MS: a busy
   * client would otherwise pay for a full status (read, validated, posted) on every command.
   */
  private changed(): void {
    if (this.pendingBroadcast) return;
    this.pendingBroadcast = true;
    setTimeout(() => {
      this.pendingBroadcast = false;
      if (this.activityUnsaved) {
        this.activityUnsaved = false;
        void this.deps.sessionArea.set(ACTIVITY_KEY, this.activity.slice()).catch(() => undefined);
      }
      // Best effort: a status that cannot be read now (the database closing) is sent with the next change.
      void this.status().then((status) => this.deps.broadcast({ type: 'BRIDGE_STATUS', requestId: newRequestId('bridge'), payload: status }), () => undefined);
    }, STATUS_EVERY_MS);
  }
}

/** Not a tab id any browser gives out. */
const NO_TAB = -1;

const isTabCommand = (plan: ToolCallPlan) => plan.command === 'tab';

const commandName = (raw: unknown) => String((raw as { type?: unknown } | null)?.type ?? '?').slice(0, 40);

function readId(raw: unknown): string | number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
