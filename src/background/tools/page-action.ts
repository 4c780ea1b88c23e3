import * as z from 'zod/mini';
import pageAgentScript from '../../content/page-agent.iife.ts?script';
import { ActionOutcome, childRequestId, type Target } from '../../protocol';
import { activeTab, askPageScript } from '../page-scripts';
import type { ToolContext } from './tool';

/** Tool parameters that name the element to act on: a snapshot ref, or a CSS selector. */
export const targetParams = {
  ref: z.optional(z.string().check(z.regex(/^(f\d+)?e\d+$/, 'A ref looks like e12 (from the snapshot tool)'))),
  selector: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
};

export function targetOf(params: { ref?: string; selector?: string }): Target {
  return params.ref ? { ref: params.ref } : { selector: params.selector ?? '' };
}

export const needsOneTarget = z.refine<{ ref?: string; selector?: string }>(
  (params) => Boolean(params.ref) !== Boolean(params.selector),
  'Give either ref (from the snapshot tool) or selector, not both',
);

/** Runs one action in the current tab's page agent and returns what it read back. */
export async function runPageAction(context: ToolContext, action: ActionOutcome['action'], target: Target, value?: string): Promise<ActionOutcome> {
  const request = {
    type: 'ACT' as const,
    requestId: childRequestId(context.requestId, 'act'),
    payload: { action, target, ...(value === undefined ? {} : { value }) },
  };
  return askPageScript(await activeTab(context.windowId), pageAgentScript, request, ActionOutcome);
}
