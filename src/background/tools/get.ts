import * as z from 'zod/mini';
import { runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const get = defineTool({
  name: 'get',
  description: 'Read something from an element or the page: its text, value, an attribute (give name), its HTML, or the page URL or title.',
  params: z.object({
    ...targetParams,
    what: z.enum(['text', 'value', 'attribute', 'html', 'url', 'title']),
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  }),
  level: 'read-only',
  effects: { target: 'get', readsValue: true },
  inertParams: ['what', 'name'],
  run: ({ what, name, ...target }, context) => runPageAction(context, 'get', targetOf(target), undefined, { what, ...(name ? { name } : {}) }),
});
