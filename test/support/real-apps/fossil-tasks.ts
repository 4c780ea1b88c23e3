/**
 * Realistic tasks on a real Fossil (test/support/real-apps/fossil.ts), each played by a scripted
 * model that finds its targets by role and name in the snapshot text, and each checked in the
 * repository itself.
 */
import { type AgentContext, findRef, logInSteps, scriptedAgent, type ScriptStep, snapshotEntries, tableRows } from '../scripted-model';
import { expectThat, sqlText, type AppTask } from './app-task';
import { CHECK_INS, FOSSIL_ADMIN, TICKETS, type Fossil } from './fossil';

const logIn = logInSteps({ user: 'User ID:', password: 'Password:', button: 'Login' }, FOSSIL_ADMIN);

/**
 * A page of the main menu, then its snapshot. A window too narrow for the whole menu (Firefox's
 * 800 pixels) shows what fits and hides the rest; its ☰ link (named Site Map) opens a panel of
 * every page, loaded by script, where the page may go by a longer name (`inPanel`). A model that
 * went the long way took one snapshot more.
 */
function fromMenu(page: string | RegExp, inPanel: string | RegExp = page): ScriptStep[] {
  let viaPanel = false;
  return [
    (ctx) => {
      viaPanel = findRef(ctx.snapshotText ?? '', 'link', page) === undefined;
      return { tool: 'click', args: { ref: ctx.findRef('link', viaPanel ? 'Site Map' : page) } };
    },
    { tool: 'snapshot' },
    (ctx) => (viaPanel ? { tool: 'click', args: { ref: ctx.findRef('link', inPanel) } } : { tool: 'snapshot' }),
    { tool: 'snapshot' },
  ];
}

/**
 * The `n`th (0-based) `role` after the text `label`, in the snapshot's order: the ticket editor's
 * remark box is the second text box after *Append Remark*, past the box for who appends it.
 */
function nthAfter(ctx: AgentContext, label: string, role: string, n: number): string {
  const lines = (ctx.snapshotText ?? '').split('\n');
  const at = lines.findIndex((line) => line.includes(label));
  const ref = at < 0 ? undefined : snapshotEntries(lines.slice(at).join('\n')).filter((entry) => entry.role === role)[n]?.ref;
  if (!ref) throw new Error(`scripted model: no ${role} number ${n + 1} after “${label}” in:\n${ctx.snapshotText}`);
  return ref;
}

/** A cell's text, its controls by their names (`[link "trunk" ref=e5]` reads `trunk`). */
const unlinked = (cell: string) => cell.replace(/\[\w+ "((?:[^"\\]|\\.)*)"[^\]]*\]/g, '$1');

/**
 * A sortable column's header by its text, whatever sort mark the page draws after it: Fossil's
 * `::after` arrow (♦, then ↓ or ↑), which Playwright's outline writes into the name.
 */
const header = (text: string) => new RegExp(`^${text}[^\\p{L}\\p{N}]?$`, 'u');

/** The cells of the column headed `heading`, top to bottom, in either outline. */
function column(snapshotText: string, heading: string): string[] {
  const rows = tableRows(snapshotText).map((cells) => cells.map(unlinked));
  const headed = header(heading);
  const row = rows.findIndex((cells) => cells.some((cell) => headed.test(cell)));
  const at = row < 0 ? -1 : rows[row]!.findIndex((cell) => headed.test(cell));
  return at < 0 ? [] : rows.slice(row + 1).map((cells) => cells[at] ?? '');
}

const byTitle = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/**
 * The timeline's latest check-in, from its first row that names a check-in and its user, in
 * either outline: its comment, then `Leaf check-in: <hash> user: <name>`.
 */
function latestCheckIn(snapshotText: string): { comment: string; user: string } | undefined {
  const rows = tableRows(snapshotText).map((cells) => cells.map(unlinked).join(' '));
  const row = rows.map((text) => /^\s*\d\d:\d\d\s+(.+?) (?:Leaf )?check-in: .*?user: (\S+)/.exec(text)).find(Boolean);
  return row ? { comment: row[1]!, user: row[2]! } : undefined;
}

/**
 * A control with no role by its text: Jawad names it (`generic "Preview"`); Playwright's outline
 * writes its text after a colon (`- generic [ref=e5] [cursor=pointer]: Preview`).
 */
function roleless(ctx: AgentContext, text: string): string {
  const written = new RegExp(`^\\s*- generic \\[ref=(\\w+)\\][^:]*: ${text}$`, 'm').exec(ctx.snapshotText ?? '')?.[1];
  return findRef(ctx.snapshotText ?? '', 'generic', text) ?? written ?? ctx.findRef('generic', text);
}

/** Logged in, a link of the tickets page followed, and what it opened read. */
const fromTickets = (link: string): ScriptStep[] => [
  ...logIn,
  ...fromMenu('Tickets', 'Tickets/Bug Reports'),
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', link) } }),
  { tool: 'snapshot' },
];

/** The ticket's form shows its Submit button only once the ticket has been previewed. */
const previewThenSubmit: ScriptStep[] = [
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Preview') } }),
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Submit') } }),
  { tool: 'snapshot' },
];

const ticket = (fossil: Fossil, title: string) => {
  // What is written in a ticket's description and remarks is kept with each change to it.
  const rows = fossil.query(`select type, severity, foundin, status, resolution, (select group_concat(icomment, ' ') from ticketchng c where c.tkt_id = t.tkt_id) as comment from ticket t where title = ${sqlText(title)}`);
  expectThat(rows.length === 1, `${rows.length} tickets are titled “${title}”`);
  return rows[0]!;
};

const NEW_TICKET = 'CSV export drops the last row';
const CRASH = TICKETS[0]!.title;
const LATEST = CHECK_INS.at(-1)!;

export const FOSSIL_TASKS: AppTask<Fossil>[] = [
  {
    name: 'file a ticket, previewing it first as the form asks',
    prompt: `File a ticket: “${NEW_TICKET}”. It is a code defect of importance Important, found in version 2.3. Describe it as: Exporting ten rows gives a file with nine.`,
    start: '/login',
    model: () =>
      scriptedAgent([
        ...fromTickets('New ticket'),
        // The summary's box has no label: it follows the sentence that asks for it.
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter(/one-line summary/, 'textbox'), text: NEW_TICKET } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter('Type', 'combobox'), option: 'Code_Defect' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('Version', 'textbox'), text: '2.3' } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter('Severity', 'combobox'), option: 'Important' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter(/Format/, 'textbox'), text: 'Exporting ten rows gives a file with nine.' } }),
        ...previewThenSubmit,
      ], { final: `Filed the ticket “${NEW_TICKET}”.` }),
    async verify(fossil) {
      const filed = ticket(fossil, NEW_TICKET);
      expectThat(filed.type === 'Code_Defect' && filed.severity === 'Important' && filed.foundin === '2.3' && filed.status === 'Open', `the ticket is ${JSON.stringify(filed)}`);
      expectThat(String(filed.comment).includes('Exporting ten rows gives a file with nine.'), `its description is ${JSON.stringify(filed.comment)}`);
    },
  },
  {
    name: 'close a ticket from the report with a resolution and a remark',
    prompt: 'Close the ticket about the export button crashing as fixed, with the remark: Fixed by the CSV export rewrite.',
    start: '/login',
    model: () =>
      scriptedAgent([
        ...fromTickets('All Tickets'),
        // Each row of the report ends with its ticket's edit link.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine(CRASH, 'link', 'edit') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter('Status', 'combobox'), option: 'Closed' } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter('Resolution', 'combobox'), option: 'Fixed' } }),
        (ctx) => ({ tool: 'fill', args: { ref: nthAfter(ctx, 'Append Remark', 'textbox', 1), text: 'Fixed by the CSV export rewrite.' } }),
        ...previewThenSubmit,
      ], { final: 'Closed the ticket as fixed.' }),
    async verify(fossil) {
      const closed = ticket(fossil, CRASH);
      expectThat(closed.status === 'Closed' && closed.resolution === 'Fixed', `the ticket is ${closed.status}, ${closed.resolution}`);
      expectThat(String(closed.comment).includes('Fixed by the CSV export rewrite.'), `its remarks are ${JSON.stringify(closed.comment)}`);
      const others = TICKETS.slice(1).map(({ title }) => ticket(fossil, title).status);
      expectThat(others.every((status) => status === 'Open'), `the other tickets are ${others.join(', ')}`);
    },
  },
  {
    name: 'sort the ticket report by a column with a click on its header',
    prompt: 'Sort the All Tickets report by title from Z to A. Which ticket is at the top?',
    start: '/login',
    model: () => {
      // A click on a header sorts by its column (sorttable.js), A to Z first: which way it went shows only in the rows.
      const sortedUp = (ctx: AgentContext) => {
        const titles = column(ctx.snapshotText ?? '', 'title');
        return titles.length > 1 && byTitle(titles[0]!, titles.at(-1)!) <= 0;
      };
      return scriptedAgent([
        ...fromTickets('All Tickets'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('columnheader', header('title')) } }),
        { tool: 'snapshot' },
        (ctx) => (sortedUp(ctx) ? { tool: 'click', args: { ref: ctx.findRef('columnheader', header('title')) } } : { tool: 'snapshot' }),
        { tool: 'snapshot' },
      ], { final: (ctx) => `At the top: “${column(ctx.snapshotText ?? '', 'title')[0] ?? 'nothing'}”.` });
    },
    async verify(fossil, _finalUrl, answer) {
      const last = fossil.query('select title from ticket').map(({ title }) => String(title)).sort(byTitle).at(-1)!;
      expectThat(answer.includes(`“${last}”`), `the answer was ${JSON.stringify(answer)}, the last title ${last}`);
    },
  },
  {
    name: 'write a Markdown page in the wiki editor, which saves by script',
    prompt: 'Create the wiki page “Release checklist” in Markdown, a list of: Run the tests, Tag the release, Announce it.',
    start: '/login',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...fromMenu('Wiki'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'new wiki page') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter(/Name of new wiki page/, 'textbox'), text: 'Release checklist' } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter(/Markup style/, 'combobox'), option: 'Markdown' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Create') } }),
        { tool: 'snapshot' },
        // The editor is built by script; the text box is its only one.
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', /.*/), text: '- Run the tests\n- Tag the release\n- Announce it' } }),
        // Its tabs are spans with a click listener each; the preview is rendered by the server.
        (ctx) => ({ tool: 'click', args: { ref: roleless(ctx, 'Preview') } }),
        { tool: 'snapshot' },
        // The preview shows the list's items, each a line of its own (the text box, hidden now, held `- Tag the release`).
        (ctx) => (/^(?:\s*- listitem(?: \[ref=\w+\])?: )?Tag the release$/m.test(ctx.snapshotText ?? '') ? { tool: 'click', args: { ref: ctx.findRef('button', 'Save') } } : 'The preview did not show the list.'),
        { tool: 'snapshot' },
      ], { final: 'Created “Release checklist”.' }),
    async verify(fossil) {
      const page = fossil.wikiPage('Release checklist', { html: true });
      expectThat(page !== undefined, 'there is no page “Release checklist”');
      const items = [...(page ?? '').matchAll(/<li>\s*(.*?)\s*<\/li>/g)].map((match) => match[1]);
      expectThat(JSON.stringify(items) === '["Run the tests","Tag the release","Announce it"]', `the page is ${JSON.stringify(page)}`);
    },
  },
  {
    name: 'add a user and tick capabilities in the user editor',
    prompt: 'Add a user “reviewer” with the password Review-pass-9 who is a Reader and may also check in.',
    start: '/login',
    model: () =>
      scriptedAgent([
        ...logIn,
        // The menu's Admin, not the link named after the user logged in (admin).
        ...fromMenu(/^Admin$/, 'Administration Pages'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Users') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Add') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Login:'), text: 'reviewer' } }),
        (ctx) => ({ tool: 'check', args: { ref: ctx.findRef('checkbox', 'Reader') } }),
        // Each capability a user has through a role is marked with the role's letter: Check-In(D).
        (ctx) => ({ tool: 'check', args: { ref: ctx.findRef('checkbox', /^Check-In/) } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Password:'), text: 'Review-pass-9' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Apply Changes') } }),
        { tool: 'snapshot' },
      ], { final: 'Added the user “reviewer”.' }),
    async verify(fossil) {
      const capabilities = fossil.capabilities('reviewer');
      expectThat(capabilities !== undefined && [...capabilities].sort().join('') === 'iu', `reviewer's capabilities are ${JSON.stringify(capabilities)}`);
      expectThat(await fossil.logsIn('reviewer', 'Review-pass-9'), 'reviewer cannot log in with Review-pass-9');
    },
  },
  {
    name: 'read who made the latest check-in from the timeline',
    prompt: 'Who made the latest check-in of the project, and what was it for?',
    start: '/login',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...fromMenu('Timeline', 'Project Timeline'),
      ], {
        final: (ctx) => {
          const latest = latestCheckIn(ctx.snapshotText ?? '');
          return latest ? `${latest.user} made the latest check-in: “${latest.comment}”.` : 'I could not read the timeline.';
        },
      }),
    async verify(_fossil, _finalUrl, answer) {
      expectThat(answer.includes(LATEST.user) && answer.includes(LATEST.comment), `the answer was ${JSON.stringify(answer)}`);
    },
  },
];
