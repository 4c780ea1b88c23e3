import 'fake-indexeddb/auto';
import * as z from 'zod/mini';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentDeps } from '../../../src/background/agent/agent-runner';
import { PermissionBroker } from '../../../src/background/gate/permission-broker';
import type { StreamEvent } from '../../../src/background/llm/types';
import { ToolRegistry } from '../../../src/background/tools/registry';
import { defineTool } from '../../../src/background/tools/tool';
import { WorkflowRunner, type WorkflowDeps, type WorkflowTabs } from '../../../src/background/workflow/runner';
import { ConversationStore } from '../../../src/db/conversations';
import { JawadDatabase } from '../../../src/db/database';
import { HarborStore } from '../../../src/db/harbor-store';
import { StepStore } from '../../../src/db/steps';
import { WorkflowStore } from '../../../src/db/workflows';
import type { BackgroundEvent, ProviderSettings, WorkflowPlan } from '../../../src/protocol';

const SETTINGS: ProviderSettings = { provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', timeoutSeconds: 30 };
const PAGES: Record<string, string> = {
  'https://alpine.com/jacket': 'Trail jacket\n\nPrice: 149.00 €',
  'https://boreal.com/jacket': 'Trail jacket\n\nPrice: 129.50 €',
};
const PLAN = JSON.stringify({ steps: Object.keys(PAGES).map((site) => ({ task: `Price at ${site}`, site, permissions: ['read'] })) });

let db: JawadDatabase;
let store: WorkflowStore;
let events: BackgroundEvent[];
let journalAtStart: string[][];

/** A model that plans, reads its step's page with read_page and reports the price it read, and writes the report. */
function model(planText = PLAN): AgentDeps['stream'] {
  return async function* (_config, request): AsyncGenerator<StreamEvent> {
    const system = request.messages[0]!.content;
    if (system.startsWith('You are the research planner')) yield { type: 'text', text: planText };
    else if (system.startsWith('You write the final report')) yield { type: 'text', text: 'Both shops sell it [1][2].' };
    else {
      const read = request.messages.find((message) => message.role === 'tool');
      if (!read) yield { type: 'tool_call', call: { id: 'r1', name: 'read_page', arguments: '{}' } };
      else yield { type: 'text', text: `- The price | "${/Price: [^\n]+/.exec(read.content)![0]}"` };
    }
    yield { type: 'done', finishReason: 'stop', toolMode: 'native' };
  };
}

/** The model, with every worker call (not the planner's) held until `release` is called. */
function workersHang(): { hanging: AgentDeps['stream']; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const base = model();
  const hanging: AgentDeps['stream'] = async function* (config, request) {
    if (!request.messages[0]!.content.startsWith('You are the research planner')) await held;
    yield* base(config, request);
  };
  return { hanging, release: () => release() };
}

function fakeTabs(): WorkflowTabs & { open: WorkflowTabs['open']; urls: Map<number, string>; closed: number[] } {
  const urls = new Map<number, string>();
  const closed: number[] = [];
  let next = 100;
  return {
    urls,
    closed,
    window: async (id) => id ?? 1,
    open: async (url) => {
      // What the journal holds when the workflow opens a tab: the step was written down before.
      journalAtStart.push((await store.journal([...(await db.workflows.toArray())][0]!.id)).map((entry) => entry.kind));
      urls.set(++next, url);
      return next;
    },
    url: async (id) => urls.get(id),
    close: async (ids) => void closed.push(...ids),
    group: async () => 7,
  };
}

function runner(tabs: WorkflowTabs, stream = model(), parallel?: number, keepAlive?: (on: boolean) => void): WorkflowRunner {
  const readPage = defineTool({
    name: 'read_page', description: 'r', params: z.object({}), level: 'read-only', effects: {},
    run: async (_params, context) => {
      const url = (tabs as ReturnType<typeof fakeTabs>).urls.get(context.tabId!)!;
      return { title: `Jacket at ${new URL(url).host}`, url, markdown: PAGES[url]!, truncated: false, product: null, interactiveElements: [] };
    },
  });
  // The test's own list: a runner an earlier test left working (its database deleted under it)
  // must not report into this test's events.
  const sink = events;
  const deps: WorkflowDeps = {
    store,
    conversations: new ConversationStore(db),
    settings: async () => SETTINGS,
    ...(parallel === undefined ? {} : { parallel: async () => parallel }),
    ...(keepAlive ? { keepAlive } : {}),
    agent: {
      stream,
      tools: new ToolRegistry([readPage as never]),
      harbor: new HarborStore(db, { get: async () => undefined, set: async () => undefined }),
      steps: new StepStore(db),
      broker: new PermissionBroker(),
      describe: async () => { throw new Error('no targets here'); },
      toolModes: { get: async () => undefined, remember: async () => undefined },
      emit: (event) => void sink.push(event),
    },
    tabs,
    emit: (event) => void sink.push(event),
  };
  return new WorkflowRunner(deps);
}

const latest = () => (events.filter((event) => event.type === 'WORKFLOW_UPDATE').at(-1) as Extract<BackgroundEvent, { type: 'WORKFLOW_UPDATE' }> | undefined)?.payload;
/** Polls (the runner works on in the background of the test) until `check` holds, for up to 10 s. */
async function settled(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (check()) return;
    await new Promise((done) => setTimeout(done, 5));
  }
  throw new Error(`${what} never happened; the workflow is ${latest()?.status}: ${latest()?.error ?? ''}`);
}
async function until(status: WorkflowPlan['status']): Promise<WorkflowPlan> {
  await settled(() => latest()?.status === status, `status ${status}`);
  return latest()!;
}
const tabsClosed = () => settled(() => latest()?.tabs.length === 0, 'closing the tabs');
const edits = (plan: WorkflowPlan) => plan.steps.map(({ id, task, site, permissions }) => ({ id, task, site, permissions }));

beforeEach(() => {
  db = new JawadDatabase(`test-${crypto.randomUUID()}`);
  store = new WorkflowStore(db);
  events = [];
  journalAtStart = [];
});
afterEach(async () => {
  await db.delete();
});

describe('WorkflowRunner', () => {
  it('plans, runs each step in a tab of its own after journalling it, and saves a cited report to history once', async () => {
    const tabs = fakeTabs();
    const workflows = runner(tabs);
    await workflows.start('Compare the jacket', 1, 'user-0000000a');
    const proposed = await until('proposed');
    await workflows.approve(proposed.id, edits(proposed), false, 1);
    const done = await until('done');
    await tabsClosed(); // just after the report is shown
    expect(done.evidence.map((item) => [item.n, item.quote, item.url, item.tabId])).toEqual([[1, 'Price: 149.00 €', 'https://alpine.com/jacket', 101], [2, 'Price: 129.50 €', 'https://boreal.com/jacket', 102]]);
    expect(done.report).toContain('Both shops sell it [1][2].');
    expect(done.report).toContain('1. [Jacket at alpine.com](https://alpine.com/jacket) — “Price: 149.00 €”');
    expect(tabs.closed).toEqual([101, 102]);
    expect(journalAtStart.map((kinds) => kinds.at(-1))).toEqual(['approved', 'step-done']);
    const messages = await new ConversationStore(db).messages(done.conversationId!);
    expect(messages.map((message) => [message.role, message.content.slice(0, 20)])).toEqual([['user', 'Compare the jacket'], ['assistant', '# Compare the jacket']]);
    expect((await store.journal(done.id)).map((entry) => entry.kind)).toEqual(expect.arrayContaining(['planning', 'proposed', 'approved', 'tab-opened', 'step-start', 'step-done', 'done', 'tabs-closed']));
  });

  it('proposes a plan that reads as many pages at once as the stored setting says (2 when nothing is stored)', async () => {
    await runner(fakeTabs(), model(), 3).start('Compare the jacket', 1, 'user-0000000a');
    expect((await until('proposed')).parallel).toBe(3);
    events = [];
    await runner(fakeTabs()).start('Compare the jacket', 1, 'user-0000000b');
    expect((await until('proposed')).parallel).toBe(2);
  });

  it('keeps the background up while the workflow plans and runs, not while the plan waits for approval, and lets go at the end', async () => {
    const asked: boolean[] = [];
    const workflows = runner(fakeTabs(), model(), 1, (on) => asked.push(on));
    await workflows.start('Compare the jacket', 1, 'user-0000000a');
    const proposed = await until('proposed');
    expect(asked).toEqual([true, false]);
    await workflows.approve(proposed.id, edits(proposed), false, 1);
    await until('done');
    expect(asked).toEqual([true, false, true, false]);
  });

  /** Makes the journal's "step-start" writes fail (a full disk): `times` of them, from the first on. */
  function diskFullAtStepStart(times: number): void {
    const save = store.save.bind(store);
    let left = times;
    vi.spyOn(store, 'save').mockImplementation(async (plan, entry, ...rest) => {
      if (entry.kind === 'step-start' && left > 0) {
        left--;
        throw new Error('QuotaExceededError: the disk is full');
      }
      return save(plan, entry, ...rest);
    });
  }
  const kinds = async (id: string) => (await store.journal(id)).map((entry) => entry.kind);

  it('goes on journalling after a write failed: the step that could not start fails, the rest run, the report is written', async () => {
    const tabs = fakeTabs();
    const workflows = runner(tabs);
    await workflows.start('Compare the jacket', 1, 'user-0000000a');
    const proposed = await until('proposed');
    diskFullAtStepStart(1);
    await workflows.approve(proposed.id, edits(proposed), false, 1);
    const done = await until('done');
    expect(done.steps[0]).toMatchObject({ status: 'failed', result: expect.stringMatching(/disk is full/) });
    expect(done.evidence.map((item) => item.quote)).toEqual(expect.arrayContaining(['Price: 129.50 €']));
    expect(await kinds(proposed.id)).toEqual(expect.arrayContaining(['step-failed', 'replanned', 'step-done', 'done']));
  });

  it('re-plans a failed step once: when the steps put in its place fail too, the workflow ends instead of re-planning for ever', async () => {
    const tabs = fakeTabs();
    const workflows = runner(tabs);
    await workflows.start('Compare the jacket', 1, 'user-0000000a');
    const proposed = await until('proposed');
    diskFullAtStepStart(Infinity);
    await workflows.approve(proposed.id, edits(proposed), false, 1);
    const done = await until('done');
    // The first step fails and is re-planned into the planner's two steps (which replace the step
    // still pending); both fail too, and neither is re-planned.
    expect(done.steps.map((step) => step.status)).toEqual(['failed', 'failed', 'failed']);
    expect(done.changes.at(-1)).toMatch(/itself a re-plan, so it is not re-planned again/);
    expect(done.report).toContain('collected no evidence');
    await tabsClosed();
    expect(tabs.closed).toHaveLength(3);
  });

  it('re-asks the planner once with the problem, then fails with a clear error', async () => {
    const workflows = runner(fakeTabs(), model('I think you should look at Alpine first.'));
    await workflows.start('Compare the jacket', 1, 'user-0000000a');
    const failed = await until('failed');
    expect(failed.error).toMatch(/^Planning failed: the model did not write a usable plan, even when asked again\. It is not valid JSON/);
  });

  it('resumes after a restart: a read step that was running runs again, a step that may have changed something waits for the user', async () => {
    const now = Date.now();
    const plan: WorkflowPlan = {
      id: 'w1', requestId: 'user-0000000a:workflow-0000000b', intent: 'Compare', status: 'running', createdAt: now, updatedAt: now, revision: 1, changes: [],
      evidence: [], unsupported: [], tabs: [{ id: 55, url: 'https://alpine.com/jacket', stepId: 'a' }], keepTabs: false, parallel: 2, windowId: 1, conversationId: 'c1',
      steps: [
        { id: 'a', agent: 'reader', task: 'Price at Alpine', site: 'https://alpine.com/jacket', permissions: ['read'], status: 'running', tabId: 55 },
        { id: 'b', agent: 'reader', task: 'Order at Boreal', site: 'https://boreal.com/jacket', permissions: ['read', 'interact'], status: 'running' },
      ],
    };
    await store.save(plan, { kind: 'step-start' });
    await new ConversationStore(db).create('c1', 'Compare');
    const tabs = fakeTabs();
    const workflows = runner(tabs);
    await workflows.resume();
    // The read step runs again to its end; the other one waits.
    await settled(() => latest()?.steps[0]?.status === 'done', 'the read step running again');
    const shown = latest()!;
    expect(shown.steps.map((step) => [step.id, step.status])).toEqual([['a', 'done'], ['b', 'confirm']]);
    expect(shown.changes.at(-1)).toMatch(/restarted; the workflow resumed \(1 step waiting for your word\)/);
    expect(tabs.closed).toEqual([55]);
    expect(shown.status).toBe('running');

    await workflows.confirmStep('w1', 'b', false);
    const done = await until('done');
    await tabsClosed();
    expect(done.steps.map((step) => step.status)).toEqual(['done', 'cancelled']);
    expect(done.evidence.map((item) => item.quote)).toEqual(['Price: 149.00 €']);
  });

  it('refuses an approval naming a step the plan does not have, and keeps the plan proposed', async () => {
    const workflows = runner(fakeTabs());
    await workflows.start('Compare the jacket', 1, 'user-0000000a');
    const proposed = await until('proposed');
    await expect(workflows.approve(proposed.id, [{ id: 'nope', task: 't', site: 'https://alpine.com/', permissions: ['read'] }], false)).rejects.toThrow(/not a step of this plan/);
    expect(latest()!.status).toBe('proposed');
  });

  it('follows its tabs to the pages they go to, and says so when one leaves the plan’s sites', async () => {
    const { hanging, release } = workersHang();
    const workflows = runner(fakeTabs(), hanging);
    await workflows.start('Compare the jacket', 1, 'user-0000000a');
    const proposed = await until('proposed');
    await workflows.approve(proposed.id, edits(proposed), false, 1);
    await settled(() => latest()?.tabs.length === 1, 'the first step’s tab');

    workflows.tabNavigated(101, 'about:blank');
    workflows.tabNavigated(101, 'https://alpine.com/jacket?size=m');
    await settled(() => latest()?.tabs[0]?.url === 'https://alpine.com/jacket?size=m', 'the tab followed within the plan');
    expect(latest()!.changes.filter((change) => change.includes('went to'))).toEqual([]);

    workflows.tabNavigated(101, 'https://tracker.example/landing');
    await settled(() => latest()?.tabs[0]?.url === 'https://tracker.example/landing', 'the tab followed out of the plan');
    expect(latest()!.changes.at(-1)).toBe('The tab of step “Price at https://alpine.com/jacket” went to https://tracker.example, which the plan does not visit: nothing is done there without asking you.');
    await expect.poll(async () => (await store.journal(proposed.id)).filter((entry) => entry.kind === 'tab-navigated').map((entry) => entry.detail)).toEqual(['https://alpine.com/jacket?size=m', 'https://tracker.example/landing']);
    release();
    await until('done');
    await tabsClosed();
  });

  it('stops an instance that outlived a restart once a new one has resumed the workflow: it writes nothing more', async () => {
    // The first instance's worker call hangs (a fetch a stopped background left behind).
    const { hanging, release } = workersHang();
    const old = runner(fakeTabs(), hanging);
    await old.start('Compare the jacket', 1, 'user-0000000a');
    const proposed = await until('proposed');
    await old.approve(proposed.id, edits(proposed), false, 2);
    await settled(() => latest()?.steps.every((step) => step.status === 'running') === true, 'both steps running');

    const fresh = runner(fakeTabs());
    await fresh.resume();
    await until('done');
    const report = (await store.journal(proposed.id)).filter((entry) => entry.kind === 'done');
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(report).toHaveLength(1);
    expect((await store.journal(proposed.id)).filter((entry) => entry.kind === 'done' || entry.kind === 'step-done')).toHaveLength(3);
    expect((await db.workflows.get(proposed.id))!.evidence).toHaveLength(2);
  });
});
