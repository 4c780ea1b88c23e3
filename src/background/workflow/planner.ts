/**
 * The workflow planner's prompt and the checking of what the model wrote. Pure: the runner sends
 * the messages and hands the text back here.
 *
 * The format is one small JSON object a 7–8B local model can write: the parser accepts it inside a
 * code fence or after some chatter, and forgives the usual slips (one permission as a string,
 * "read-only" for "read"); anything else is re-asked once with the problem named, then an error.
 */
import * as z from 'zod/mini';
import { MAX_WORKFLOW_STEPS, WorkflowLevel, type WorkflowPlan, type WorkflowStep } from '../../protocol';
import type { LlmMessage } from '../llm/types';

export const PLANNER_SYSTEM_PROMPT = [
  'You are the research planner of Jawad, a browser assistant. You turn the user’s research request into a short plan of steps.',
  'Each step works on ONE web page: Jawad opens the page in a tab of its own and a worker reads it (and, if allowed, navigates or interacts) to do the step’s task.',
  'Use only pages the user named or pages you are sure exist. Prefer few steps: one per page to read.',
  'Permissions per step: "read" (read the page), "navigate" (follow links on that site), "interact" (click, type). Ask for the least the task needs.',
  'Answer with ONLY this JSON object, no other text:',
  '{"steps": [{"task": "what to find on this page", "site": "https://full.address/of/the/page", "permissions": ["read"]}]}',
].join('\n');

const LENIENT_LEVEL: Record<string, WorkflowLevel> = { read: 'read', 'read-only': 'read', readonly: 'read', navigate: 'navigate', interact: 'interact', click: 'interact' };

const PlannedStep = z.object({
  task: z.string().check(z.trim(), z.minLength(1, 'a step has an empty "task"'), z.maxLength(1_000)),
  site: z.string().check(z.refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), '"site" must be a full http(s) address')),
  permissions: z.array(WorkflowLevel).check(z.minLength(1, '"permissions" must name at least one of read, navigate, interact')),
});
export type PlannedStep = z.infer<typeof PlannedStep>;

const PlannerOutput = z.object({
  steps: z.array(PlannedStep).check(z.minLength(1, 'the plan has no steps'), z.maxLength(MAX_WORKFLOW_STEPS, `a plan has at most ${MAX_WORKFLOW_STEPS} steps`)),
});

export type ParsedPlan = { ok: true; steps: PlannedStep[] } | { ok: false; problem: string };

/** The JSON value in a model's answer: a fenced block, else the outermost braces (or brackets). */
function jsonIn(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const body = fenced ?? text;
  const start = body.search(/[{[]/);
  const end = Math.max(body.lastIndexOf('}'), body.lastIndexOf(']'));
  if (start === -1 || end < start) throw new Error('there is no JSON object in the answer');
  return JSON.parse(body.slice(start, end + 1));
}

/** The usual slips of small models, mended before validation: a bare list, one permission as a string, synonyms. */
function mend(value: unknown): unknown {
  const root = Array.isArray(value) ? { steps: value } : value;
  if (!root || typeof root !== 'object' || !Array.isArray((root as { steps?: unknown }).steps)) return root;
  const steps = (root as { steps: unknown[] }).steps.map((step) => {
    if (!step || typeof step !== 'object') return step;
    const raw = (step as { permissions?: unknown }).permissions ?? ['read'];
    const list = (Array.isArray(raw) ? raw : [raw]).map((level) => (typeof level === 'string' ? LENIENT_LEVEL[level.trim().toLowerCase()] ?? level : level));
    const url = (step as { site?: unknown; url?: unknown }).site ?? (step as { url?: unknown }).url;
    return { ...step, site: typeof url === 'string' ? url.trim() : url, permissions: [...new Set(list)] };
  });
  return { ...root, steps };
}

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}

export function parsePlan(text: string): ParsedPlan {
  let value: unknown;
  try {
    value = jsonIn(text);
  } catch (error) {
    return { ok: false, problem: `It is not valid JSON (${error instanceof Error ? error.message : String(error)}).` };
  }
  const parsed = PlannerOutput.safeParse(mend(value));
  return parsed.success ? { ok: true, steps: parsed.data.steps } : { ok: false, problem: `It does not follow the format: ${describeIssues(parsed.error)}.` };
}

export function plannerMessages(intent: string): LlmMessage[] {
  return [
    { role: 'system', content: PLANNER_SYSTEM_PROMPT },
    { role: 'user', content: intent },
  ];
}

/** The one re-ask: the model sees its answer and what is wrong with it. */
export function repairMessages(messages: LlmMessage[], answer: string, problem: string): LlmMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: answer },
    { role: 'user', content: `That answer cannot be used. ${problem} Answer again with ONLY the JSON object, in exactly the format given.` },
  ];
}

function stepLine(step: WorkflowStep, index: number): string {
  return `${index + 1}. [${step.status}] ${step.task} — ${step.site} (${step.permissions.join(', ')})${step.result ? `: ${step.result.slice(0, 300)}` : ''}`;
}

/** After a step failed: the plan so far, and a request for the steps that should replace the ones not run yet. */
export function replanMessages(plan: WorkflowPlan, failed: WorkflowStep): LlmMessage[] {
  return [
    { role: 'system', content: PLANNER_SYSTEM_PROMPT },
    {
      role: 'user',
      content: [
        `Research request: ${plan.intent}`,
        'The plan so far:',
        ...plan.steps.map(stepLine),
        `Step “${failed.task}” failed: ${failed.result ?? 'no reason given'}.`,
        'Write the steps to run from now on, replacing the pending ones: first one that does the failed task on another page, then the pending steps still needed.',
      ].join('\n'),
    },
  ];
}

export const MAX_PLANNER_ATTEMPTS = 2;
