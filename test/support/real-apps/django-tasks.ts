/**
 * Realistic tasks on Django's admin over a library catalogue (test/support/real-apps/django-admin.ts),
 * each played by a scripted model that finds its targets by role and name in the snapshot text,
 * and each checked in the database.
 */
import { type AgentContext, findRef, logInSteps, scriptedAgent, type ScriptStep, snapshotEntries, tableRows } from '../scripted-model';
import { expectThat, type AppTask } from './app-task';
import { DJANGO_ADMIN, type DjangoAdmin } from './django-admin';

const logIn = logInSteps({ user: 'Username:', password: 'Password:', button: 'Log in' }, DJANGO_ADMIN);

/** Logged in, a model's list of records from the site's index (`| [link "Books"] | [link "Add"] | [link "Change"] |`). */
const openList = (model: string): ScriptStep[] => [
  ...logIn,
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', model) } }),
  { tool: 'snapshot' },
];

/** The control in the row under a table's header row, in the column headed `header` (an inline form's new row). */
function fieldUnder(ctx: AgentContext, header: string): string {
  const rows = tableRows(ctx.snapshotText ?? '');
  const headed = rows.findIndex((row) => row.includes(header));
  const column = rows[headed]?.indexOf(header) ?? -1;
  const cell = column >= 0 ? rows[headed + 1]?.[column] : undefined;
  const ref = cell === undefined ? undefined : snapshotEntries(cell)[0]?.ref;
  if (!ref) throw new Error(`scripted model: no field under “${header}” in:\n${ctx.snapshotText}`);
  return ref;
}

const books = (admin: DjangoAdmin) => admin.query('select b.title, a.name, b.published, b.status from library_book b join library_author a on a.id = b.author_id order by b.title');
const statusOf = (admin: DjangoAdmin, title: string) => books(admin).find((row) => row[0] === title)?.[3];

export const DJANGO_TASKS: AppTask<DjangoAdmin>[] = [
  {
    name: 'add a record with an autocomplete, a date, a two-list picker and a select',
    prompt: 'Add the book Dune by Frank Herbert, published 1 August 1965, as science fiction, available to lend.',
    start: '/admin/',
    model: () =>
      scriptedAgent([
        ...logIn,
        // The index lists each model with its own Add link.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine(/link "Books"/, 'link', 'Add') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Title:'), text: 'Dune' } }),
        // The author is a Select2 box, which fetches its options as it opens, twenty at a time
        // (Frank Herbert is not among the first twenty); it follows its label.
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter(/^Author$/, 'combobox'), option: 'Frank Herbert' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Published:'), text: '1965-08-01' } }),
        // Genres are picked in one list and moved to the other with its Choose arrow. In Firefox's
        // 800-px window the picker is cut off past the list (the page's own boxes hide their
        // overflow), arrow and all: there the model filters the list and presses Enter, the
        // picker's keyboard way of choosing what the filter leaves.
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter(/Available genres/, 'listbox'), option: 'Science fiction' } }),
        (ctx) => (findRef(ctx.snapshotText ?? '', 'link', 'Choose') ? { tool: 'click', args: { ref: ctx.findRef('link', 'Choose') } } : { tool: 'type_text', args: { ref: ctx.findRef('textbox', 'Filter'), text: 'Science fiction' } }),
        (ctx) => (findRef(ctx.snapshotText ?? '', 'link', 'Choose') ? { tool: 'snapshot' } : { tool: 'press_key', args: { ref: ctx.findRef('textbox', 'Filter'), keys: 'Enter' } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', 'Status:'), option: 'Available' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
        { tool: 'snapshot' },
      ], { final: 'Added “Dune”.' }),
    async verify(admin) {
      const dune = books(admin).find((row) => row[0] === 'Dune');
      expectThat(JSON.stringify(dune) === JSON.stringify(['Dune', 'Frank Herbert', '1965-08-01', 'available']), `the book is ${JSON.stringify(dune)}`);
      const genres = admin.query("select g.name from library_book_genres bg join library_genre g on g.id = bg.genre_id join library_book b on b.id = bg.book_id where b.title = 'Dune'");
      expectThat(JSON.stringify(genres) === '[["Science fiction"]]', `its genres are ${JSON.stringify(genres)}`);
    },
  },
  {
    name: 'tick rows of a list and run an action from its menu',
    prompt: 'Mark The Left Hand of Darkness and Children of Dune as available.',
    start: '/admin/',
    model: () =>
      scriptedAgent([
        ...openList('Books'),
        // Each row starts with its checkbox, on the line of the book's link.
        (ctx) => ({ tool: 'check', args: { ref: ctx.findRefInLine(/link "The Left Hand of Darkness"/, 'checkbox', /.*/) } }),
        (ctx) => ({ tool: 'check', args: { ref: ctx.findRefInLine(/link "Children of Dune"/, 'checkbox', /.*/) } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', /^Action/), option: 'Mark selected books as available' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Go') } }),
        { tool: 'snapshot' },
      ], { final: 'Both are available now.' }),
    async verify(admin) {
      expectThat(statusOf(admin, 'The Left Hand of Darkness') === 'available' && statusOf(admin, 'Children of Dune') === 'available', `the books are ${JSON.stringify(books(admin))}`);
      expectThat(statusOf(admin, 'The Dispossessed') === 'lent' && statusOf(admin, 'A Wizard of Earthsea') === 'lent', `other books changed: ${JSON.stringify(books(admin))}`);
    },
  },
  {
    name: 'filter a list from its sidebar and answer from the rows',
    prompt: 'Which books are lent out right now?',
    start: '/admin/',
    model: () =>
      scriptedAgent([
        ...openList('Books'),
        // The sidebar's "By status" lists All, Draft, Available, Lent.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Lent') } }),
        { tool: 'snapshot' },
      ], {
        final: (ctx) => {
          // The books' rows start with their checkbox; the header's is the one without a book's link.
          const rows = tableRows(ctx.snapshotText ?? '').filter((row) => row[0]?.includes('[checkbox'));
          const titles = rows.map((row) => snapshotEntries(row[1] ?? '').find((entry) => entry.role === 'link')?.name).filter((title): title is string => Boolean(title) && title !== 'Title');
          return `Lent out: ${titles.join('; ')}.`;
        },
      }),
    async verify(admin, _finalUrl, answer) {
      const lent = books(admin).filter((row) => row[3] === 'lent').map((row) => row[0] as string).sort();
      const told = (/^Lent out: (.*)\.$/.exec(answer)?.[1] ?? '').split('; ').sort();
      expectThat(JSON.stringify(told) === JSON.stringify(lent), `the answer was ${JSON.stringify(answer)}; lent are ${lent.join(', ')}`);
    },
  },
  {
    name: 'search a list and answer from the row found',
    prompt: 'Is Children of Dune available to lend?',
    start: '/admin/',
    model: () =>
      scriptedAgent([
        ...openList('Books'),
        // The search box's label is a magnifier whose alt text says "Search".
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Search'), text: 'Children of Dune' } }),
        (ctx) => ({ tool: 'press_key', args: { ref: ctx.findRef('textbox', 'Search'), keys: 'Enter' } }),
        { tool: 'snapshot' },
      ], {
        final: (ctx) => {
          const row = tableRows(ctx.snapshotText ?? '').find((cells) => cells[1]?.includes('link "Children of Dune"'));
          return `Children of Dune is ${row?.[3]?.toLowerCase() ?? 'not listed'}.`;
        },
      }),
    async verify(admin, finalUrl, answer) {
      expectThat(finalUrl.includes('q=Children'), `the browser ended on ${finalUrl}`);
      expectThat(answer === `Children of Dune is ${String(statusOf(admin, 'Children of Dune'))}.`, `the answer was ${JSON.stringify(answer)}`);
    },
  },
  {
    name: 'add a row to a record’s inline table and save',
    prompt: 'Record that Ada Lovelace borrowed The Left Hand of Darkness, due back on 24 December 2026.',
    start: '/admin/',
    model: () =>
      scriptedAgent([
        ...openList('Books'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'The Left Hand of Darkness') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Add another Loan') } }),
        { tool: 'snapshot' },
        // The new row's fields have no labels of their own: they sit under the table's headers.
        (ctx) => ({ tool: 'fill', args: { ref: fieldUnder(ctx, 'Borrower'), text: 'Ada Lovelace' } }),
        (ctx) => ({ tool: 'fill', args: { ref: fieldUnder(ctx, 'Due'), text: '2026-12-24' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
        { tool: 'snapshot' },
      ], { final: 'Recorded the loan.' }),
    async verify(admin) {
      const loans = admin.query('select b.title, l.borrower, l.due from library_loan l join library_book b on b.id = l.book_id');
      expectThat(JSON.stringify(loans) === JSON.stringify([['The Left Hand of Darkness', 'Ada Lovelace', '2026-12-24']]), `the loans are ${JSON.stringify(loans)}`);
    },
  },
  {
    name: 'delete a record, confirming on the page that asks',
    prompt: 'Delete the author Anonymous Draftsman.',
    start: '/admin/',
    model: () =>
      scriptedAgent([
        ...openList('Authors'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Anonymous Draftsman') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Delete') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', /^Yes, I’m sure$/) } }),
        { tool: 'snapshot' },
      ], { final: 'Deleted the author Anonymous Draftsman.' }),
    async verify(admin) {
      const authors = admin.query("select name from library_author where name not like 'Staff Writer %' order by name").map((row) => row[0]);
      expectThat(JSON.stringify(authors) === JSON.stringify(['Frank Herbert', 'Ursula K. Le Guin']), `the authors are ${JSON.stringify(authors)}`);
      const staff = admin.query("select count(*) from library_author where name like 'Staff Writer %'")[0]?.[0];
      expectThat(staff === 30, `${String(staff)} staff writers are left`);
    },
  },
];
