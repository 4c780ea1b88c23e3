import type * as z from 'zod/mini';

import type { Action, Binding, PermissionLevel } from '../../protocol';

export type { PermissionLevel };

export interface ToolContext {
  /** Chain of the request that caused this run (for the action log). */
  requestId: string;
  /** The browser window the sidebar belongs to: "the current tab" is its active tab. */
  windowId?: number;
  /**
   * The tab a step was judged in: set by the step gate so an approved step acts there and nowhere
   * else, whichever tab is active by then. Without it (the tools panel), the active tab.
   */
  tabId?: number;
  /**
   * The URL of `tabId` as the step gate read it a moment ago, for a step that runs at once (no
   * prompt in between): the tool need not ask the browser again.
   */
  tabUrl?: string;
  /**
   * What an approved step was judged on (document, target identity): page actions send it with
   * ACT, and the page refuses when anything changed.
   */
  binding?: Binding;
  /** The tabs a task may see (list_tabs lists only these); unset for the user's own tools panel. */
  visibleTabs?: readonly number[];
  /** Aborted when the tool's time is up or the user stops. */
  signal: AbortSignal;
}

/**
 * What a tool does beyond reading, declared beside its code: Harbor classifies a step from these,
 * never from the tool's name. Each names the parameter that carries it where there is one. A tool
 * that takes text, a URL, keys or a tab without declaring it fails the registry test.
 */
export interface ToolEffects {
  /**
   * The page action it does to an element (ref/selector). Before anything is done the page is asked
   * what the element is and what this action would do to it (submit, follow a link, flip a toggle).
   */
  target?: Action;
  /** The parameter whose text goes into the page (typed, filled, chosen). */
  text?: string;
  /** The parameter whose keys are pressed. */
  keys?: string;
  /** The parameter with the URL the browser is sent to. */
  url?: string;
  /** The parameter naming another tab, which the tool switches to or closes. */
  tab?: string;
  /** Clicks its target: may follow a link or submit a form (the page says which). */
  activates?: boolean;
  /** Flips its target's state (check, uncheck): critical when the toggle's name is. */
  toggles?: boolean;
  /** Types the text key by key, so a line break is an Enter. */
  typesKeys?: boolean;
  /** May read a field's value: a secret field's value is its own prompt. */
  readsValue?: boolean;
  /** Opens a new tab. */
  opensTab?: boolean;
  /** Works on the browser's tab list, not a page. */
  tabList?: boolean;
  /**
   * The parameter that has the page's own confirmation box accepted: a page asks one before what it
   * cannot undo, so such a step is critical (always asked, never granted).
   */
  acceptsDialog?: string;
}

/** One tool: everything the registry, the agent and the tools panel need to know about it. */
export interface Tool<P extends z.ZodMiniType = z.ZodMiniType> {
  name: string;
  description: string;
  params: P;
  level: PermissionLevel;
  effects: ToolEffects;
  /** Parameters that carry none of the effects above (closed choices such as `what`, sizes). */
  inertParams?: readonly string[];
  /** Defaults to the registry's timeout; a tool told to wait (a snapshot waiting for text) works it out from its parameters. */
  timeoutMs?: number | ((params: z.infer<P>) => number);
  run(params: z.infer<P>, context: ToolContext): Promise<unknown>;
}

/** Keeps the parameter type of each tool checked against its own schema. */
export function defineTool<P extends z.ZodMiniType>(tool: Tool<P>): Tool<P> {
  return tool;
}
