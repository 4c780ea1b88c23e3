/**
 * Research mode's records (issue 12, seed 003's WorkflowPlan): a plan of steps, each on one site
 * with the levels the user approved there, the evidence the steps collected, and the report.
 * WORKFLOW_UPDATE carries the whole plan on every change, so a sidebar that reconnects is whole.
 */
import * as z from 'zod/mini';

/** What a step may do on its site: read it, go from page to page, or act on it (click, type). */
export const WorkflowLevel = z.enum(['read', 'navigate', 'interact']);
export type WorkflowLevel = z.infer<typeof WorkflowLevel>;

/**
 * pending: not run yet · running · done · failed: it could not do its task (a re-plan follows) ·
 * cancelled: the workflow was cancelled before it ran ·
 * confirm: the background stopped while this step could have changed something: it runs again
 * only if the user says so (never replayed on its own).
 */
export const WorkflowStepStatus = z.enum(['pending', 'running', 'done', 'failed', 'cancelled', 'confirm']);
export type WorkflowStepStatus = z.infer<typeof WorkflowStepStatus>;

export const MAX_WORKFLOW_STEPS = 12;
export const DEFAULT_PARALLEL = 2;
export const MAX_PARALLEL = 4;

const Text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
const HttpUrl = z.string().check(z.maxLength(2_000), z.refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'A step’s site is a full http(s) address'));

export const WorkflowStep = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  /** Which kind of worker runs it ("reader" for a page-reading step). */
  agent: z.string().check(z.maxLength(50)),
  task: Text(1_000),
  /** The page the step starts on (the tab the workflow opens for it). */
  site: HttpUrl,
  permissions: z.array(WorkflowLevel).check(z.minLength(1)),
  status: WorkflowStepStatus,
  /** What the step found (its answer), or why it failed. */
  result: z.optional(z.string()),
  /** The tab the step ran in. */
  tabId: z.optional(z.int()),
  /** The failed step a re-plan added this one for: it is not re-planned again when it fails too. */
  replaces: z.optional(z.string()),
});
export type WorkflowStep = z.infer<typeof WorkflowStep>;

/** One fact the workflow collected, and where it stands written: what a citation points to. */
export const Evidence = z.object({
  /** The citation number in the report ([1], [2], …). */
  n: z.int().check(z.positive()),
  stepId: z.string(),
  claim: z.string(),
  /** The exact words on the page. */
  quote: z.string(),
  url: z.string(),
  title: z.string(),
  at: z.number(),
  tabId: z.int(),
});
export type Evidence = z.infer<typeof Evidence>;

/**
 * planning: the model writes the plan · proposed: waiting for the user's approval · running ·
 * done: the report is written · failed · cancelled.
 */
export const WorkflowStatus = z.enum(['planning', 'proposed', 'running', 'done', 'failed', 'cancelled']);
export type WorkflowStatus = z.infer<typeof WorkflowStatus>;

export const WorkflowTab = z.object({ id: z.int(), url: z.string(), stepId: z.string() });
export type WorkflowTab = z.infer<typeof WorkflowTab>;

export const WorkflowPlan = z.object({
  id: z.string(),
  /** The START_WORKFLOW request's chain: every event and step of the workflow extends it. */
  requestId: z.string(),
  intent: z.string(),
  steps: z.array(WorkflowStep),
  status: WorkflowStatus,
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Bumped on every change of the steps themselves (an edit, a re-plan). */
  revision: z.int(),
  /** Plan changes in words, newest last ("Step 2 failed …; re-planned: …"): never silent. */
  changes: z.array(z.string()),
  evidence: z.array(Evidence),
  /** Facts a step reported that no quote on its pages backs: the report marks them. */
  unsupported: z.array(z.string()),
  /** The tabs the workflow opened (also the list shown where the browser has no tab groups). */
  tabs: z.array(WorkflowTab),
  /** The tab group's title ("Task(1a2b3c)"), when the browser groups tabs. */
  group: z.optional(z.string()),
  groupId: z.optional(z.int()),
  /** Keep the workflow's tabs open when it ends (else they are closed). */
  keepTabs: z.boolean(),
  /** How many read-only steps may run side by side, in tabs of their own. */
  parallel: z._default(z.int().check(z.minimum(1), z.maximum(MAX_PARALLEL)), DEFAULT_PARALLEL),
  windowId: z.optional(z.int()),
  /** The markdown report, once written; saved to history as conversationId. */
  report: z.optional(z.string()),
  conversationId: z.optional(z.string()),
  error: z.optional(z.string()),
});
export type WorkflowPlan = z.infer<typeof WorkflowPlan>;

/** Research mode's stored settings: how many read-only steps a new plan runs side by side. */
export const ResearchSettings = z.object({
  parallel: z._default(z.int().check(z.minimum(1), z.maximum(MAX_PARALLEL)), DEFAULT_PARALLEL),
});
export type ResearchSettings = z.infer<typeof ResearchSettings>;

/** The user's version of a proposed plan: steps in the order to run, edited, some removed. */
export const PlanEdit = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  task: Text(1_000),
  site: HttpUrl,
  permissions: z.array(WorkflowLevel).check(z.minLength(1)),
});
export type PlanEdit = z.infer<typeof PlanEdit>;

