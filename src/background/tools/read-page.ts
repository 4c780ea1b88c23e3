import * as z from 'zod/mini';
import { PageSnapshot, type PageContent } from '../../protocol';
import { readActivePage } from '../page-reader';
import { tabAfterLastAction } from './page-action';
import { snapshot } from './snapshot';
import { defineTool } from './tool';

export const readPage = defineTool({
  name: 'read_page',
  description:
    'Read the visible main content of the current tab as markdown, with its title, URL, product facts on shop pages, and interactiveElements: everything a user can act on, with the same refs the snapshot tool gives (act on them with click, fill, …). A PDF the tab shows is read as its text, page by page (pdfPages: how many).',
  params: z.object({
    maxChars: z._default(z.int().check(z.minimum(200), z.maximum(200_000)), 20_000),
  }),
  level: 'read-only',
  effects: {},
  async run({ maxChars }, context): Promise<PageContent> {
    // The view the tab's last action loads by script comes first; the snapshot below then finds it
    // waited out. The boxes the page showed since (as a page that action opened loaded) are told here.
    const { lateDialogs } = await tabAfterLastAction(context);
    // The reader writes the markdown, the page agent lists the refs (its registry is the one the
    // actions resolve refs in): both at once, so the call costs the slower of the two.
    const outline = snapshot.run(snapshot.params.parse({}), context).then(
      (taken) => ({ taken }),
      (error: unknown) => ({ error }),
    );
    const content = await readActivePage(context.requestId, context.windowId, maxChars, context.tabId);
    const late = lateDialogs.length > 0 ? { lateDialogs } : {};
    // A PDF in the browser's viewer has nothing to act on (and Firefox's lets no script list it).
    if (content.pdfPages !== undefined) return { ...content, ...late };
    const snapshotted = await outline;
    if ('error' in snapshotted) throw snapshotted.error;
    return { ...content, interactiveElements: PageSnapshot.parse(snapshotted.taken).refs, ...late };
  },
});
