import * as z from 'zod/mini';
import { readActivePage } from '../page-reader';
import { defineTool } from './tool';

export const readPage = defineTool({
  name: 'read_page',
  description: 'Read the visible main content of the current tab as markdown, with its title and URL.',
  params: z.object({
    maxChars: z._default(z.int().check(z.minimum(200), z.maximum(200_000)), 20_000),
  }),
  level: 'read-only',
  run: ({ maxChars }, { requestId, windowId }) => readActivePage(requestId, windowId, maxChars),
});
