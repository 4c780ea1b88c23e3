import type * as z from 'zod/mini';

import type { PermissionLevel } from '../../protocol';

export type { PermissionLevel };

export interface ToolContext {
  /** Chain of the request that caused this run (for the action log). */
  requestId: string;
  /** The browser window the sidebar belongs to: "the current tab" is its active tab. */
  windowId?: number;
  /** Aborted when the tool's time is up or the user stops. */
  signal: AbortSignal;
}

/** One tool: everything the registry, the agent and the tools panel need to know about it. */
export interface Tool<P extends z.ZodMiniType = z.ZodMiniType> {
  name: string;
  description: string;
  params: P;
  level: PermissionLevel;
  /** Defaults to the registry's timeout. */
  timeoutMs?: number;
  run(params: z.infer<P>, context: ToolContext): Promise<unknown>;
}

/** Keeps the parameter type of each tool checked against its own schema. */
export function defineTool<P extends z.ZodMiniType>(tool: Tool<P>): Tool<P> {
  return tool;
}
