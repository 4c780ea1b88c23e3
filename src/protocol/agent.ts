/**
 * The agent's records: Harbor's verdicts and grants, and one step of the action log. Shared by the
 * background (which decides and stores), the sidebar (which shows and asks) and the runner.
 */
import * as z from 'zod/mini';
import { ErrorPayload } from './errors';

/** How much a tool may change: the permission engine (Harbor) decides per level. */
export const PermissionLevel = z.enum(['read-only', 'navigate', 'interact', 'submit']);
export type PermissionLevel = z.infer<typeof PermissionLevel>;

/** What Harbor says before the user is involved. */
export const Verdict = z.enum(['auto-approve', 'ask', 'deny']);
export type Verdict = z.infer<typeof Verdict>;

/** The user's answer to a permission prompt. */
export const DECISIONS = ['allow-once', 'allow-site', 'allow-session', 'deny', 'deny-all'] as const;
export const Decision = z.enum(DECISIONS);
export type Decision = z.infer<typeof Decision>;

/** A standing permission: this level of action on this site, until revoked or the session ends. */
export const Grant = z.object({
  id: z.string(),
  /** "https://example.com": scheme plus registrable domain (see harbor/site.ts). */
  site: z.string(),
  level: PermissionLevel,
  /** site: kept until revoked · session: until the browser session ends. */
  scope: z.enum(['site', 'session']),
  createdAt: z.number(),
  /** Whose grant it is: a paired bridge client's id; absent for the user's own (the agent's). */
  principal: z.optional(z.string()),
});
export type Grant = z.infer<typeof Grant>;

export const HarborOptions = z.object({
  /** Form submissions ask every time, even on sites with a grant. On by default. */
  submitAlwaysAsks: z._default(z.boolean(), true),
});
export type HarborOptions = z.infer<typeof HarborOptions>;

/** The element an action aims at, as the page describes it (untrusted: for the user's eyes). */
export const StepTarget = z.object({
  ref: z.optional(z.string()),
  selector: z.optional(z.string()),
  role: z.string(),
  name: z.string(),
  /** A link's destination or a form's action URL. */
  url: z.optional(z.string()),
});
export type StepTarget = z.infer<typeof StepTarget>;

/** Data that would leave the page if the step runs: text typed into a field, a URL opened. */
export const Egress = z.object({
  kind: z.enum(['text', 'url']),
  value: z.string(),
  /** Why it matters, in words for the user ("contains text read from 127.0.0.1"). */
  reason: z.string(),
});
export type Egress = z.infer<typeof Egress>;

/**
 * asking: waiting on the user · running · done · failed: the tool reported an error ·
 * denied: Harbor or the user said no · stopped: the user stopped the task ·
 * interrupted: the background went away mid-step.
 */
export const StepStatus = z.enum(['asking', 'running', 'done', 'failed', 'denied', 'stopped', 'interrupted']);
export type StepStatus = z.infer<typeof StepStatus>;

/** How the step was let through (or not): Harbor's automatic verdict or the user's decision. */
export const StepDecision = z.enum(['auto-approve', 'policy-deny', ...DECISIONS]);
export type StepDecision = z.infer<typeof StepDecision>;

export const StepResult = z.object({
  success: z.boolean(),
  /** A short line for the log ("clicked button “Add to cart”", "snapshot: 85 refs"). */
  summary: z.string(),
  error: z.optional(ErrorPayload),
});
export type StepResult = z.infer<typeof StepResult>;

/** One tool call of the agent, from proposal to result: the action log's line. */
export const AgentStep = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** The assistant message this step belongs to. */
  messageId: z.string(),
  /** Chain back to the user message (user-…:chat-…:agent-…:step-…). */
  requestId: z.string(),
  index: z.int(),
  createdAt: z.number(),
  /** What the model said before calling the tool. */
  thinking: z.optional(z.string()),
  tool: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** The site acted on ("https://example.com"), or "" when the step touches no site. */
  site: z.string(),
  /** The tab's URL when the step was proposed. */
  url: z.optional(z.string()),
  level: PermissionLevel,
  critical: z.boolean(),
  /** Why Harbor asks or denies, in words for the user. Empty when auto-approved. */
  reasons: z.array(z.string()),
  target: z.optional(StepTarget),
  egress: z.array(Egress),
  verdict: Verdict,
  /** False for critical and submit steps while "submits always ask" is on: only allow-once fits. */
  grantable: z.boolean(),
  promptRaised: z.boolean(),
  decision: z.optional(StepDecision),
  status: StepStatus,
  result: z.optional(StepResult),
  duration: z.optional(z.number()),
});
export type AgentStep = z.infer<typeof AgentStep>;

/** What a step that was asking or running becomes when the browser stops Jawad's background. */
export const INTERRUPTED_STEP = {
  status: 'interrupted',
  result: { success: false, summary: 'Interrupted: Jawad’s background stopped during this step.' },
} as const satisfies Pick<AgentStep, 'status' | 'result'>;
