import * as z from 'zod/mini';
import pageAgentScript from '../../content/page-agent.iife.ts?script';
import { childRequestId, PageSnapshot } from '../../protocol';
import { activeTab, askPageScript } from '../page-scripts';
import { defineTool } from './tool';

export const snapshot = defineTool({
  name: 'snapshot',
  description:
    'List everything on the current page a user can act on — links, buttons, fields, checkboxes, menus, custom widgets — each with a ref (e1, e2, …) to act on it, its role, name and state, and the visible text around them. Hidden content is left out. Long lists show 20 rows at a time: pass page: 2, 3, … for the next rows.',
  params: z.object({
    maxRefs: z._default(z.int().check(z.minimum(1), z.maximum(20_000)), 3_000),
    timeBudgetMs: z._default(z.int().check(z.minimum(10), z.maximum(10_000)), 800),
    /** Long lists show 20 rows at a time; page 2 shows rows 21–40, and so on. */
    page: z._default(z.int().check(z.minimum(1), z.maximum(100_000)), 1),
  }),
  level: 'read-only',
  async run(params, { requestId, windowId }) {
    const request = { type: 'SNAPSHOT' as const, requestId: childRequestId(requestId, 'snapshot'), payload: params };
    return askPageScript(await activeTab(windowId), pageAgentScript, request, PageSnapshot);
  },
});
