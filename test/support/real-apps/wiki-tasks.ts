/**
 * Realistic tasks on a real MediaWiki (test/support/real-apps/mediawiki.ts), each played by a
 * scripted model that finds its targets by role and name in the snapshot text it is given, as a
 * real model does, and each checked in the wiki's own state (its API) — never in the DOM.
 */
import { scriptedAgent, snapshotEntries, type AgentContext, type ScriptStep } from '../scripted-model';
import { expectThat, type AppTask } from './app-task';
import { WIKI_ADMIN, type MediaWiki } from './mediawiki';

/** Logging in, from the login form. */
const logIn: ScriptStep[] = [
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Username'), text: WIKI_ADMIN.user } }),
  (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Password'), text: WIKI_ADMIN.password } }),
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Log in') } }),
];

const NOTES = 'Jawad notes';
const NOTES_TEXT = 'Meeting moved to Thursday. Bring the quarterly figures.';

const MOVED = 'Welcome page';

/**
 * The move form's title field, as a model reads it: named "New title" once the wiki's widgets are
 * up, or before that the field right after the "New title:" text that holds the current title.
 */
function newTitleField(ctx: AgentContext): string {
  const fields = snapshotEntries(ctx.snapshotText ?? '').filter((entry) => /^(textbox|combobox)$/.test(entry.role));
  const field = fields.find((entry) => /new title/i.test(entry.name)) ?? fields.find((entry) => entry.value === 'Main Page');
  return field?.ref ?? ctx.findRef(/^(textbox|combobox)$/, /new title/i);
}

/** In this order: moving the main page comes last, as the search reads it. */
export const WIKI_TASKS: AppTask<MediaWiki>[] = [
  {
    name: 'log in and create a page',
    prompt: `Log in as ${WIKI_ADMIN.user} and create the page “${NOTES}” saying: ${NOTES_TEXT}`,
    start: '/index.php?title=Special:UserLogin',
    model: (wiki) =>
      scriptedAgent([
        ...logIn,
        { tool: 'open_url', args: { url: `${wiki.url}/index.php?title=${encodeURIComponent(NOTES.replace(/ /g, '_'))}&action=edit` } },
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Wikitext source editor'), text: NOTES_TEXT } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Summary:'), text: 'Notes for Thursday' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save page') } }),
      ], { final: `Created “${NOTES}”.` }),
    async verify(wiki) {
      const page = await wiki.latest(NOTES);
      expectThat(page?.content === NOTES_TEXT, `the page holds ${JSON.stringify(page?.content)}`);
      // Saved by the account, not by an anonymous IP: the login worked.
      expectThat(page?.user === WIKI_ADMIN.user, `the revision is by ${page?.user}`);
    },
  },
  {
    name: 'filter the log with an overlay dropdown',
    prompt: 'Show only the user creation log.',
    start: '/index.php?title=Special:Log',
    ready: '.oo-ui-dropdownWidget-handle',
    model: () =>
      scriptedAgent([
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('combobox', /public logs/i) } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('option', 'User creation log') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Show') } }),
      ], { final: 'Here is the user creation log.' }),
    async verify(wiki, finalUrl) {
      // The wiki's own answer at the address the browser ended on is the user creation log.
      expectThat(new URL(finalUrl).searchParams.get('type') === 'newusers', `the browser ended on ${finalUrl}`);
      const html = await (await fetch(finalUrl)).text();
      expectThat(/<h1[^>]*>User creation log</.test(html), 'the wiki shows another log at that address');
    },
  },
  {
    name: 'search the wiki and read the answer',
    prompt: 'What does this wiki say about how to get started? Search for it.',
    start: '/index.php?title=Special:Search',
    model: () =>
      scriptedAgent([
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('searchbox', /search/i), text: 'getting started' } }),
        (ctx) => ({ tool: 'press_key', args: { ref: ctx.findRef('searchbox', /search/i), keys: 'Enter' } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Main Page') } }),
        { tool: 'read_page' },
      ], {
        // The answer quotes the first sentence the page read back: what the user is told comes from the wiki.
        final: (ctx) => `The main page says: ${/MediaWiki has been installed[^.]*\./.exec(ctx.lastResult?.content ?? '')?.[0] ?? '(nothing found)'}`,
      }),
    async verify(wiki, finalUrl, answer) {
      expectThat(/title=Main_Page|\/Main_Page$/.test(finalUrl), `the browser ended on ${finalUrl}`);
      const page = await wiki.latest('Main Page');
      const quoted = /The main page says: (.+)$/.exec(answer)?.[1] ?? '';
      expectThat(quoted.length > 20 && (page?.content ?? '').replace(/'''/g, '').includes(quoted), `the answer ${JSON.stringify(answer)} is not from the wiki's main page`);
    },
  },
  {
    name: 'move a page through a CSS-only menu',
    prompt: `Log in and rename the main page to “${MOVED}”.`,
    start: '/index.php?title=Special:UserLogin&returnto=Main_Page',
    model: () =>
      scriptedAgent([
        ...logIn,
        { tool: 'snapshot' },
        // Vector's "More" menu: a transparent checkbox over its label; its items appear once it is ticked.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'More') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Move') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: newTitleField(ctx), text: MOVED } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Move page') } }),
      ], { final: `Renamed the main page to “${MOVED}”.` }),
    async verify(wiki) {
      const moved = await wiki.latest(MOVED);
      expectThat(Boolean(moved?.content.includes('MediaWiki has been installed')), `“${MOVED}” holds ${JSON.stringify(moved?.content.slice(0, 80))}`);
      const redirect = await wiki.latest('Main Page');
      expectThat(Boolean(redirect?.content.startsWith('#REDIRECT')), 'the old title does not redirect to the new one');
    },
  },
];
