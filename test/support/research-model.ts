/**
 * A scripted model for research mode that plays planner, step worker and report writer, telling
 * them apart by their system prompts and answering from what it is sent — so steps running side
 * by side get the right answers whatever order their requests arrive in.
 *
 * The worker reads its page with read_page, then reports the price it read there with the exact
 * words as its quote (or FAILED when the page has none), as a real model following the format would.
 */
import type { Reply, RecordedRequest, Responder } from './provider-server';
import { callsThisTask, chatMessages, isChatCompletion, lastUserMessage, offersTools, textReply, toolCallReply, toolResults, type PlannedCall } from './scripted-model';

export interface PlannedStepJson {
  task: string;
  site: string;
  permissions?: string[];
}

export interface ResearchScript {
  /** The planner's answers in order (the last one repeats): a malformed one tests the re-ask. */
  plans: string[];
  /** The planner's answer when asked to re-plan after a failure. */
  replan?: string;
  /** A page whose worker hangs (to cancel mid-step), by a part of its URL. */
  stallOn?: string;
  /** Pages whose worker hangs the first time only (the background is stopped meanwhile), by a part of their URL. */
  stallFirstOn?: string[];
  /** Steps wait this long before each worker reply (to have time to act mid-workflow). */
  workerDelayMs?: number;
  /** Tool calls a worker makes first, by a part of its page's URL (then it reads and answers). */
  actions?: Record<string, PlannedCall[]>;
}

/** Whether this request is a step worker's turn on a page whose URL contains `part`. */
export function isWorkerOn(request: RecordedRequest, part: string): boolean {
  return isChatCompletion(request) && offersTools(request) && lastUserMessage(request).includes(part);
}

export const planJson = (steps: PlannedStepJson[]): string => JSON.stringify({ steps: steps.map((step) => ({ permissions: ['read'], ...step })) });

const systemOf = (request: RecordedRequest) => chatMessages(request)[0]?.content ?? '';

function workerAnswer(page: string): string {
  const price = /Price: ([^\n"\\<]+)/.exec(page)?.[1]?.trim();
  const shop = /Trail jacket — ([^\n"\\<]+)/.exec(page)?.[1]?.trim() ?? 'The shop';
  if (!price) return 'FAILED: the page shows no price for the jacket.';
  return `- ${shop} sells the Trail jacket for ${price} | "Price: ${price}"`;
}

function reportAnswer(request: RecordedRequest): string {
  const lines = lastUserMessage(request).split('\n').filter((line) => /^\[\d+\]/.test(line));
  const cited = lines.map((line) => `- ${line.replace(/^\[(\d+)\]\s*(.*?)\s*\(“.*$/, '$2 [$1]')}`);
  return ['Here is what each shop asks.', '', ...cited, '', 'Prices may change tomorrow.'].join('\n');
}

export function researchModel(script: ResearchScript): Responder {
  let planned = 0;
  const stalled = new Set<string>();
  return (request): Reply | undefined => {
    if (!isChatCompletion(request)) return undefined;
    const system = systemOf(request);
    if (system.startsWith('You are the research planner')) {
      if (lastUserMessage(request).includes(' failed: ')) return textReply(script.replan ?? script.plans.at(-1)!);
      return textReply(script.plans[Math.min(planned++, script.plans.length - 1)]!);
    }
    if (system.startsWith('You write the final report')) return textReply(reportAnswer(request));
    if (!offersTools(request)) return undefined;
    const page = lastUserMessage(request);
    if (script.stallOn && isWorkerOn(request, script.stallOn)) return { kind: 'stall' };
    const first = script.stallFirstOn?.find((part) => !stalled.has(part) && isWorkerOn(request, part));
    if (first) {
      stalled.add(first);
      return { kind: 'stall' };
    }
    const delay = script.workerDelayMs ? { delayMs: script.workerDelayMs } : {};
    const actions = Object.entries(script.actions ?? {}).find(([part]) => page.includes(part))?.[1] ?? [];
    const next = actions[callsThisTask(request).length];
    if (next) return { ...toolCallReply(next), ...delay };
    const read = toolResults(request).find((result) => result.tool === 'read_page');
    if (!read) return { ...toolCallReply({ tool: 'read_page' }), ...delay };
    return { ...textReply(workerAnswer(read.content)), ...delay };
  };
}
