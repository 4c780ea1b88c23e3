/**
 * Runs agent tasks from Node over a 'jawad-sidebar' Port opened inside an extension page (the
 * welcome page is enough): the same protocol the sidebar speaks. Shared by the headless runner and
 * the E2E tests.
 *
 * Node cannot be called back from inside page.evaluate under Firefox's WebDriver BiDi, so the page
 * queues what the Port receives and Node drains the queue by polling. Functions sent to the page
 * are self-contained and define no named inner functions: tsx (esbuild keepNames) would wrap those
 * in a `__name` helper that does not exist in the page.
 */
import type { Page } from 'puppeteer-core';
import type { Browser as ExtensionApi, Runtime } from 'webextension-polyfill';
import { childRequestId, newRequestId, type AgentStep, type Decision, type ProviderSettings, type SidebarRequest, type StoredMessage } from '../src/protocol';
import { TaskTracker } from './task-tracker';

export interface TaskOptions {
  task: string;
  /** Answers each PERMISSION_REQUEST (called in Node). */
  approve: (step: AgentStep) => Decision | Promise<Decision>;
  conversationId?: string | null;
  windowId?: number;
  timeoutMs?: number; // default 120_000
  /** Called whenever a step changes (ACTION_LOG_UPDATE), in Node. */
  onStep?: (step: AgentStep) => void;
}

export interface TaskOutcome {
  conversationId: string;
  /** The final state of every step, in index order. */
  steps: AgentStep[];
  /** Every PERMISSION_REQUEST received, in order (a step can be asked about once). */
  prompts: AgentStep[];
  /** The final assistant message (status complete / stopped / error …). */
  answer: StoredMessage;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const POLL_MS = 50;
/** As the sidebar does: Chrome stops an idle service worker after 30 s, mid-task included. */
const KEEPALIVE_MS = 20_000;
/** Firefox BiDi can fail an evaluate while a tab switches process; a few in a row are tolerated. */
const MAX_POLL_FAILURES = 10;
const REPLY_TIMEOUT_MS = 15_000;

/** What the page keeps per task, on a global so that later evaluates find it. */
interface PageTask {
  port: Runtime.Port;
  queue: string[];
  disconnected: boolean;
}
type RunnerPage = typeof globalThis & { browser: ExtensionApi; __jawadRunnerTasks?: Record<string, PageTask> };

export interface Drained {
  messages: string[];
  disconnected: boolean;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Runs one agent task over a 'jawad-sidebar' Port opened in `host` (any extension page). */
export async function runAgentTask(host: Page, options: TaskOptions): Promise<TaskOutcome> {
  const requestId = newRequestId('runner');
  const taskKey = requestId;
  const chat: SidebarRequest = {
    type: 'CHAT_MESSAGE',
    requestId,
    payload: {
      conversationId: options.conversationId ?? null,
      content: options.task,
      attachPage: false,
      agent: true,
      ...(options.windowId === undefined ? {} : { windowId: options.windowId }),
    },
  };
  await openTaskPort(host, taskKey, chat);
  const tracker = new TaskTracker(requestId, options.conversationId ?? null);
  try {
    return await followTask(host, taskKey, tracker, options);
  } catch (error) {
    if (tracker.conversation) await stopTask(host, tracker.conversation).catch(() => undefined);
    throw error;
  } finally {
    await closeTaskPort(host, taskKey).catch(() => undefined);
  }
}

async function followTask(host: Page, taskKey: string, tracker: TaskTracker, options: TaskOptions): Promise<TaskOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let nextKeepalive = Date.now() + KEEPALIVE_MS;
  const failures = { count: 0 };
  for (;;) {
    const drained = await drainTolerantly(host, taskKey, failures);
    for (const text of drained.messages) deliver(tracker, text, options.onStep);
    await answerPrompts(host, taskKey, tracker, options.approve);

    const state = tracker.state;
    if (state.kind === 'finished') return { conversationId: state.conversationId, steps: tracker.stepsInOrder(), prompts: tracker.allPrompts(), answer: state.answer };
    if (state.kind === 'failed') throw new Error(`Jawad refused the task: ${state.error.code}: ${state.error.message}`);
    if (drained.disconnected) throw new Error("Jawad's background closed the connection before the task finished.");
    if (Date.now() > deadline) throw new Error(timeoutMessage(timeoutMs, tracker));
    if (Date.now() > nextKeepalive) {
      await postOnTaskPort(host, taskKey, { type: 'PING', requestId: childRequestId(taskKey, 'ping'), payload: {} });
      nextKeepalive = Date.now() + KEEPALIVE_MS;
    }
    await sleep(POLL_MS);
  }
}

export async function drainTolerantly(host: Page, taskKey: string, failures: { count: number }): Promise<Drained> {
  try {
    const drained = await drainTaskPort(host, taskKey);
    failures.count = 0;
    return drained;
  } catch (error) {
    if (++failures.count >= MAX_POLL_FAILURES) throw error;
    return { messages: [], disconnected: false };
  }
}

/** Hands one message to the tracker and tells onStep about the steps it changed. */
function deliver(tracker: TaskTracker, text: string, onStep: TaskOptions['onStep']): void {
  const before = onStep ? new Map(tracker.stepsInOrder().map((step) => [step.id, step])) : undefined;
  tracker.receive(JSON.parse(text));
  if (!onStep || !before) return;
  for (const step of tracker.stepsInOrder()) if (before.get(step.id) !== step) onStep(step);
}

async function answerPrompts(host: Page, taskKey: string, tracker: TaskTracker, approve: TaskOptions['approve']): Promise<void> {
  for (const step of tracker.takePrompts()) {
    const decision = await approve(step);
    await postOnTaskPort(host, taskKey, {
      type: 'PERMISSION_RESPONSE',
      requestId: childRequestId(taskKey, 'answer'),
      payload: { stepId: step.id, decision },
    });
  }
}

function timeoutMessage(timeoutMs: number, tracker: TaskTracker): string {
  const last = tracker.lastStep();
  const where = last ? ` (last step: #${last.index} ${last.tool}, ${last.status})` : tracker.conversation ? ' (no step yet)' : ' (the background never started it)';
  return `The agent task did not finish within ${Math.round(timeoutMs / 1000)} s${where}.`;
}

// ---- The page side -------------------------------------------------------------------------

export function openTaskPort(host: Page, taskKey: string, first: SidebarRequest): Promise<void> {
  return host.evaluate(
    (key, json) => {
      const page = globalThis as unknown as RunnerPage;
      const tasks = (page.__jawadRunnerTasks ??= {});
      const port = page.browser.runtime.connect({ name: 'jawad-sidebar' });
      const task: PageTask = { port, queue: [], disconnected: false };
      tasks[key] = task;
      // Kept as JSON text: BiDi serialisation of deep objects is lossy, a string is not.
      port.onMessage.addListener((message: unknown) => void task.queue.push(JSON.stringify(message)));
      port.onDisconnect.addListener(() => void (task.disconnected = true));
      port.postMessage(JSON.parse(json));
    },
    taskKey,
    JSON.stringify(first),
  );
}

export async function drainTaskPort(host: Page, taskKey: string): Promise<Drained> {
  const text = await host.evaluate((key) => {
    const task = (globalThis as unknown as RunnerPage).__jawadRunnerTasks?.[key];
    if (!task) return JSON.stringify({ messages: [], disconnected: true });
    return JSON.stringify({ messages: task.queue.splice(0), disconnected: task.disconnected });
  }, taskKey);
  return JSON.parse(text) as Drained;
}

export function postOnTaskPort(host: Page, taskKey: string, message: SidebarRequest): Promise<void> {
  return host.evaluate(
    (key, json) => {
      const task = (globalThis as unknown as RunnerPage).__jawadRunnerTasks?.[key];
      if (!task || task.disconnected) throw new Error('The task connection is closed');
      task.port.postMessage(JSON.parse(json));
    },
    taskKey,
    JSON.stringify(message),
  );
}

export function closeTaskPort(host: Page, taskKey: string): Promise<void> {
  return host.evaluate((key) => {
    const tasks = (globalThis as unknown as RunnerPage).__jawadRunnerTasks;
    tasks?.[key]?.port.disconnect();
    if (tasks) delete tasks[key];
  }, taskKey);
}

/**
 * Posts `request` on a fresh Port and waits for the first event of `replyType` carrying its
 * requestId (or an ERROR for it). Returns that event as JSON text.
 */
async function requestOverPort(host: Page, request: SidebarRequest, replyType: string): Promise<{ type: string; payload: unknown }> {
  const text = await host.evaluate(
    (json, wanted, timeoutMs) =>
      new Promise<string>((resolve, reject) => {
        const message = JSON.parse(json) as { requestId: string };
        const port = (globalThis as unknown as RunnerPage).browser.runtime.connect({ name: 'jawad-sidebar' });
        const timer = setTimeout(() => {
          port.disconnect();
          reject(new Error(`No ${wanted} from Jawad's background within ${timeoutMs} ms`));
        }, timeoutMs);
        port.onMessage.addListener((reply: unknown) => {
          const event = reply as { type: string; requestId: string };
          if (event.requestId !== message.requestId || (event.type !== wanted && event.type !== 'ERROR')) return;
          clearTimeout(timer);
          port.disconnect();
          resolve(JSON.stringify(event));
        });
        port.postMessage(message);
      }),
    JSON.stringify(request),
    replyType,
    REPLY_TIMEOUT_MS,
  );
  const event = JSON.parse(text) as { type: string; payload: unknown };
  if (event.type === 'ERROR') {
    const error = event.payload as { code?: string; message?: string };
    throw new Error(`Jawad refused ${request.type}: ${error.code ?? 'ERROR'}: ${error.message ?? ''}`);
  }
  return event;
}

/** SAVE_SETTINGS over the same kind of Port; resolves on the SETTINGS answer, rejects on ERROR. */
export async function saveProviderSettings(host: Page, settings: ProviderSettings): Promise<void> {
  await requestOverPort(host, { type: 'SAVE_SETTINGS', requestId: newRequestId('runner'), payload: settings }, 'SETTINGS');
}

/** STOP_GENERATION for a running task. */
export async function stopTask(host: Page, conversationId: string): Promise<void> {
  // STOP_GENERATION has no answer. A GET_SETTINGS posted after it on the same Port is answered
  // only once the background has taken the stop, so its reply tells us the stop arrived.
  await host.evaluate(
    (stopJson, confirmJson, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const confirm = JSON.parse(confirmJson) as { requestId: string };
        const port = (globalThis as unknown as RunnerPage).browser.runtime.connect({ name: 'jawad-sidebar' });
        const timer = setTimeout(() => {
          port.disconnect();
          reject(new Error(`Jawad's background did not confirm the stop within ${timeoutMs} ms`));
        }, timeoutMs);
        port.onMessage.addListener((reply: unknown) => {
          if ((reply as { requestId?: string }).requestId !== confirm.requestId) return;
          clearTimeout(timer);
          port.disconnect();
          resolve();
        });
        port.postMessage(JSON.parse(stopJson));
        port.postMessage(confirm);
      }),
    JSON.stringify({ type: 'STOP_GENERATION', requestId: newRequestId('runner'), payload: { conversationId } } satisfies SidebarRequest),
    JSON.stringify({ type: 'GET_SETTINGS', requestId: newRequestId('runner'), payload: {} } satisfies SidebarRequest),
    REPLY_TIMEOUT_MS,
  );
}
