/**
 * Realistic tasks on a real DokuWiki (test/support/real-apps/dokuwiki.ts), each played by a
 * scripted model that finds its targets by role and name in the snapshot text, and each checked
 * in the wiki's own files.
 */
import { logInSteps, readBack, scriptedAgent, type ScriptStep, snapshotEntries } from '../scripted-model';
import { expectThat, type AppTask } from './app-task';
import { DOKU_ADMIN, type DokuWiki } from './dokuwiki';

/** Logging in, from the login form. */
const logIn = logInSteps({ user: /user/i, password: /password/i, button: /log in/i }, DOKU_ADMIN);

const LOGIN = '/doku.php?id=start&do=login';

/** From the start page, logged in, to one of the admin's tools. */
const adminTool = (tool: RegExp): ScriptStep[] => [
  ...logIn,
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Admin') } }),
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', tool) } }),
  { tool: 'snapshot' },
];

/** A search field, whichever role the outline gives it (a text box with suggestions reads as a combobox). */
const SEARCH_FIELD = /^(textbox|searchbox|combobox)$/;

/** The text box named `name` that holds `value`. */
function fieldHolding(snapshotText: string, name: RegExp, value: string): string {
  const entry = snapshotEntries(snapshotText).find((candidate) => candidate.role === 'textbox' && name.test(candidate.name) && candidate.value === value);
  if (!entry) throw new Error(`scripted model: no text box ${String(name)} holding ${value} in the latest snapshot:\n${snapshotText}`);
  return entry.ref;
}

const ACL_DONE = 'Visitors who are not logged in can no longer see the shopping page.';

/** The users file's line for a user: login, password hash, name, email, groups. */
function userLine(wiki: DokuWiki, login: string): string[] {
  return (wiki.conf('users.auth.php').split('\n').find((line) => line.startsWith(`${login}:`)) ?? '').split(':');
}

export const DOKU_TASKS: AppTask<DokuWiki>[] = [
  {
    name: 'log in and create a page',
    prompt: 'Log in and create the page “meeting notes” saying: Meeting moved to Thursday.',
    start: LOGIN,
    model: (wiki) =>
      scriptedAgent([
        ...logIn,
        { tool: 'open_url', args: { url: `${wiki.url}/doku.php?id=meeting_notes` } },
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', /^Create this page/) } }),
        { tool: 'snapshot' },
        // The editor's text area has no label: it is the text box after the editing instructions.
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter(/^Edit the page and hit Save/, 'textbox'), text: 'Meeting moved to Thursday.' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'Created “meeting notes”.' }),
    async verify(wiki) {
      expectThat(wiki.page('meeting_notes')?.trim() === 'Meeting moved to Thursday.', `the page holds ${JSON.stringify(wiki.page('meeting_notes'))}`);
      expectThat(wiki.authors('meeting_notes').at(-1) === DOKU_ADMIN.user, `the change is by ${wiki.authors('meeting_notes').join(', ')}`);
    },
  },
  {
    name: 'add to a list on a page',
    prompt: 'Log in and add eggs to the shopping list.',
    start: '/doku.php?id=shopping&do=login',
    model: () =>
      scriptedAgent([
        ...logIn,
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', /^Edit this page/) } }),
        { tool: 'snapshot' },
        // What the page holds now, whole, then the same with one more item.
        (ctx) => ({ tool: 'get', args: { ref: ctx.fieldAfter(/^Edit the page and hit Save/, 'textbox'), what: 'value' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter(/^Edit the page and hit Save/, 'textbox'), text: `${readBack(ctx).trimEnd()}\n  * Eggs\n` } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'Added eggs to the shopping list.' }),
    async verify(wiki) {
      const text = wiki.page('shopping') ?? '';
      expectThat(/^  \* Milk$/m.test(text) && /^  \* Bread$/m.test(text) && /^  \* Eggs$/m.test(text), `the list is now ${JSON.stringify(text)}`);
      expectThat(wiki.authors('shopping').at(-1) === DOKU_ADMIN.user, `the change is by ${wiki.authors('shopping').join(', ')}`);
    },
  },
  {
    name: 'search the wiki and read the answer',
    prompt: 'How do I make text bold on this wiki? Search for it.',
    start: '/doku.php?id=start',
    model: () =>
      scriptedAgent([
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef(SEARCH_FIELD, 'Search'), text: 'bold' } }),
        (ctx) => ({ tool: 'press_key', args: { ref: ctx.findRef(SEARCH_FIELD, 'Search'), keys: 'Enter' } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', /syntax/) } }),
        { tool: 'read_page' },
      ], {
        // The answer quotes the sentence the page read back: what the user is told comes from the wiki.
        final: (ctx) => `The wiki says: ${/DokuWiki supports \W*bold[^.]*\./.exec(ctx.lastResult?.content ?? '')?.[0]?.replace(/[*_`]/g, '') ?? '(nothing found)'}`,
      }),
    async verify(wiki, finalUrl, answer) {
      expectThat(finalUrl.includes('syntax'), `the browser ended on ${finalUrl}`);
      const source = (wiki.page('wiki:syntax') ?? '').replace(/\*\*|\/\/|__|''/g, '');
      const quoted = /The wiki says: (.+)$/.exec(answer)?.[1] ?? '';
      expectThat(quoted.length > 20 && source.includes(quoted), `the answer ${JSON.stringify(answer)} is not from wiki:syntax`);
    },
  },
  {
    name: 'change a setting in a dropdown',
    prompt: 'Log in and change the wiki’s license to CC0 1.0 Universal.',
    start: LOGIN,
    model: () =>
      scriptedAgent([
        ...adminTool(/^Configuration Settings/),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', /license/i), option: 'CC0 1.0 Universal' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'The license is now CC0 1.0 Universal.' }),
    async verify(wiki) {
      expectThat(/\$conf\['license'\] = 'cc-zero';/.test(wiki.conf('local.php')), `local.php holds ${wiki.conf('local.php')}`);
    },
  },
  {
    name: 'edit a row of the user table',
    prompt: 'Log in and change Bob’s full name to Robert Builder.',
    start: LOGIN,
    model: () =>
      scriptedAgent([
        ...adminTool(/^User Manager/),
        // The user list is a table: Bob's row, and the login that opens his record.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine('Bob Builder', 'link', 'bob') } }),
        { tool: 'snapshot' },
        // The edit form opens below the add form: its Real Name field is the one holding Bob's name.
        (ctx) => ({ tool: 'fill', args: { ref: fieldHolding(ctx.snapshotText ?? '', /^Real Name/, 'Bob Builder'), text: 'Robert Builder' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save Changes') } }),
      ], { final: 'Bob is now Robert Builder.' }),
    async verify(wiki) {
      const bob = userLine(wiki, 'bob');
      expectThat(bob[2] === 'Robert Builder' && bob[3] === 'bob@example.com', `bob's line is ${bob.join(':')}`);
    },
  },
  {
    name: 'add a user',
    prompt: 'Log in and add a user carol (Carol Danvers, carol@example.com).',
    start: LOGIN,
    model: () =>
      scriptedAgent([
        ...adminTool(/^User Manager/),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'User:'), text: 'carol' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Password:'), text: 'Carol-pass-1' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'once again:'), text: 'Carol-pass-1' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Real Name:'), text: 'Carol Danvers' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Email:'), text: 'carol@example.com' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Add') } }),
      ], { final: 'Added carol.' }),
    async verify(wiki) {
      const carol = userLine(wiki, 'carol');
      expectThat(carol[2] === 'Carol Danvers' && carol[3] === 'carol@example.com' && carol[4] === 'user', `carol's line is ${carol.join(':')}`);
    },
  },
  {
    name: 'update the profile from the user menu',
    prompt: 'Log in and change my email address to wiki-admin@example.org.',
    start: LOGIN,
    model: () =>
      scriptedAgent([
        ...logIn,
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Update Profile') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', /^E-Mail/), text: 'wiki-admin@example.org' } }),
        // The first of two such fields: the profile form's, not the account deletion's.
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Confirm current password'), text: DOKU_ADMIN.password } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'Your email address is now wiki-admin@example.org.' }),
    async verify(wiki) {
      const admin = userLine(wiki, DOKU_ADMIN.user);
      expectThat(admin[3] === 'wiki-admin@example.org' && admin[2] === 'Wiki Admin', `the admin's line is ${admin.join(':')}`);
    },
  },

  {
    name: 'restrict a page in the access control list',
    prompt: 'Log in and make the shopping page invisible to visitors who are not logged in.',
    start: '/doku.php?id=shopping&do=login',
    model: () =>
      scriptedAgent([
        ...adminTool(/^Access Control List/),
        // "Permissions for": the dropdown lists the groups that have rules already, @ALL (everyone) among them.
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter(/^Permissions for/, 'combobox'), option: '@ALL' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Select') } }),
        { tool: 'snapshot' },
        // The entry form arrives by a script's request after the click: not there yet, look again.
        // Then the new entry's permission (before the table of current rules, which has radios too).
        (ctx) => (/Add new Entry/.test(ctx.snapshotText ?? '') ? { tool: 'check', args: { ref: ctx.fieldAfter('Add new Entry', 'radio') } } : { tool: 'snapshot' }),
        (ctx) => (ctx.lastResult?.tool === 'check' ? { tool: 'click', args: { ref: ctx.findRef('button', 'Save') } } : { tool: 'check', args: { ref: ctx.fieldAfter('Add new Entry', 'radio') } }),
        (ctx) => (ctx.lastResult?.tool === 'click' ? ACL_DONE : { tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: ACL_DONE }),
    async verify(wiki) {
      expectThat(/^shopping\s+@ALL\s+0$/m.test(wiki.conf('acl.auth.php')), `acl.auth.php holds ${wiki.conf('acl.auth.php')}`);
      // The wiki itself now refuses the page to a visitor.
      const html = await (await fetch(`${wiki.url}/doku.php?id=shopping`)).text();
      expectThat(!html.includes('Bread') && /Permission Denied/i.test(html), 'a visitor still reads the shopping page');
    },
  },
  {
    name: 'read the media changes through a dropdown that opens its page',
    prompt: 'Which picture was uploaded to the wiki lately, and by whom?',
    start: '/doku.php?id=start',
    model: () =>
      scriptedAgent([
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Recent Changes') } }),
        { tool: 'snapshot' },
        // The list shows page changes; its dropdown loads the list of another kind as soon as one is chosen (no button).
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', /changes/i), option: 'Media files' } }),
        // The choice's result says which page it opened; a model that is not told reads a page about to go.
        (ctx) => (/show_changes=mediafiles/.test(ctx.lastResult?.content ?? '') ? { tool: 'snapshot' } : `The list did not change: ${ctx.lastResult?.content ?? 'no result'}`),
      ], {
        // The answer names the picture and the user on the list's line that links a picture.
        final: (ctx) => {
          const line = (ctx.snapshotText ?? '').split('\n').find((candidate) => /link "[^"]*\.(png|jpe?g|gif)"/.test(candidate)) ?? '';
          return `Latest upload: ${/link "([^"]*\.(?:png|jpe?g|gif))"/.exec(line)?.[1] ?? '(none)'}, by ${/\b(bob|admin)\b/.exec(line)?.[1] ?? '(nobody)'}`;
        },
      }),
    async verify(wiki, finalUrl, answer) {
      expectThat(finalUrl.includes('show_changes=mediafiles'), `the browser ended on ${finalUrl}`);
      const latest = wiki.mediaChanges().at(-1);
      const name = latest?.id.split(':').at(-1) ?? '(no media change)';
      expectThat(answer.includes(name) && answer.endsWith(`by ${latest?.user}`), `the answer is ${JSON.stringify(answer)}; the wiki's log says ${JSON.stringify(latest)}`);
    },
  },
];
