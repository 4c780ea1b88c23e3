/**
 * Realistic tasks on a real Adminer over a SQLite shop database (test/support/real-apps/adminer.ts),
 * each played by a scripted model that finds its targets by role and name in the snapshot text,
 * and each checked in the database file itself.
 */
import { scriptedAgent, tableRows, type ScriptStep } from '../scripted-model';
import { ADMINER_PASSWORD, type Adminer } from './adminer';
import { expectThat, type AppTask } from './app-task';

/** Adminer's login form: the database system is a native dropdown, SQLite names its file as the database. */
const logIn = (adminer: Adminer): ScriptStep[] => [
  { tool: 'snapshot' },
  // The form is a table: each field sits in the cell after its header, with no label tying them.
  (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter('System', 'combobox'), option: 'SQLite 3' } }),
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('Password', 'textbox'), text: ADMINER_PASSWORD } }),
  (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('Database', 'textbox'), text: adminer.database } }),
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Login') } }),
  { tool: 'snapshot' },
];

/** Logging in, then from the database's page to a table's rows. */
const openTable = (adminer: Adminer, table: string): ScriptStep[] => [
  ...logIn(adminer),
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', table) } }),
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Select data') } }),
  { tool: 'snapshot' },
];

/** A table's rows, then the edit form of the row whose line says `line` (every row has its own "edit" link). */
const openRow = (adminer: Adminer, table: string, line: string): ScriptStep[] => [
  ...openTable(adminer, table),
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine(line, 'link', 'edit') } }),
  { tool: 'snapshot' },
];

function only<T>(rows: T[], what: string): T {
  expectThat(rows.length === 1, `expected one ${what}, found ${rows.length}`);
  return rows[0]!;
}

export const ADMINER_TASKS: AppTask<Adminer>[] = [
  {
    name: 'log in and add a customer',
    prompt: 'Log in to the shop database and add the customer Grace Hopper, grace@example.com, from Arlington.',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...logIn(adminer),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'customers') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'New item') } }),
        { tool: 'snapshot' },
        // Each column's row: its name, a function dropdown, then the value's field.
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('name', 'textbox'), text: 'Grace Hopper' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('email', 'textbox'), text: 'grace@example.com' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('city', 'textbox'), text: 'Arlington' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'Added Grace Hopper.' }),
    async verify(adminer) {
      const row = only(adminer.query("SELECT email, city FROM customers WHERE name = 'Grace Hopper'"), 'Grace Hopper');
      expectThat(row.email === 'grace@example.com' && row.city === 'Arlington', `the row holds ${JSON.stringify(row)}`);
    },
  },

  {
    name: 'edit a table row',
    prompt: 'Ada Lovelace moved to Paris: change her city in the shop database.',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...openRow(adminer, 'customers', 'Ada Lovelace'),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('city', 'textbox'), text: 'Paris' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'Ada Lovelace now lives in Paris.' }),
    async verify(adminer) {
      const row = only(adminer.query("SELECT city FROM customers WHERE name = 'Ada Lovelace'"), 'Ada Lovelace');
      expectThat(row.city === 'Paris', `her city is ${row.city}`);
      expectThat(adminer.query("SELECT id FROM customers WHERE city = 'Paris'").length === 1, 'another row changed too');
    },
  },
  {
    name: 'run an SQL command and read the answer',
    prompt: 'How many orders are still open? Ask the shop database with an SQL command.',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...logIn(adminer),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'SQL command') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', /.*/), text: 'SELECT status, count(*) AS orders FROM orders GROUP BY status' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Execute') } }),
        { tool: 'snapshot' },
      ], { final: (ctx) => `${cellAfter(ctx.snapshotText ?? '', 'open')} orders are open.` }),
    async verify(adminer, _url, answer) {
      const row = only(adminer.query("SELECT count(*) AS n FROM orders WHERE status = 'open'"), 'count');
      expectThat(answer === `${row.n} orders are open.`, `the answer ${JSON.stringify(answer)} does not give ${row.n}`);
    },
  },
  {
    name: 'search rows with the search form',
    prompt: 'Which customers live in Berlin?',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...openTable(adminer, 'customers'),
        // The Search link opens a fieldset: which column, how to compare, what value.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Search') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter('Search', 'combobox'), option: 'city' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('Search', 'searchbox'), text: 'Berlin' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Select') } }),
        { tool: 'snapshot' },
      ], { final: (ctx) => `In Berlin: ${namesIn(ctx.snapshotText ?? '', 'Berlin').join(', ')}.` }),
    async verify(adminer, finalUrl, answer) {
      const names = adminer.query("SELECT name FROM customers WHERE city = 'Berlin' ORDER BY id").map((row) => row.name);
      expectThat(answer === `In Berlin: ${names.join(', ')}.`, `the answer ${JSON.stringify(answer)} is not ${names.join(', ')}`);
      // The list was narrowed by the search, not read from the whole table.
      expectThat(decodeURIComponent(finalUrl).includes('Berlin'), `the browser ended on ${finalUrl}`);
    },
  },
  {
    name: 'sort with a dropdown and read the top row',
    prompt: 'What is the largest order in the shop, and whose is it?',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...openTable(adminer, 'orders'),
        // The Sort link opens a fieldset: which column, and whether descending.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Sort') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.fieldAfter('Sort', 'combobox'), option: 'total' } }),
        (ctx) => ({ tool: 'check', args: { ref: ctx.findRef('checkbox', 'descending') } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Select') } }),
        { tool: 'snapshot' },
      ], { final: (ctx) => topOrder(ctx.snapshotText ?? '') }),
    async verify(adminer, _url, answer) {
      const top = only(adminer.query('SELECT id, total FROM orders ORDER BY total DESC LIMIT 1'), 'largest order');
      expectThat(answer === `Order ${top.id}, ${top.total}.`, `the answer ${JSON.stringify(answer)} is not order ${top.id}`);
    },
  },
  {
    name: 'create a table',
    prompt: 'Create a table “notes” in the shop database with a text column “body”.',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...logIn(adminer),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Create table') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('Table name', 'textbox'), text: 'notes' } }),
        // One row a column: its name, then its type in a dropdown.
        (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Column name'), text: 'body' } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', 'Type'), option: 'text' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'Created the table notes.' }),
    async verify(adminer) {
      const columns = adminer.query("SELECT name, type FROM pragma_table_info('notes')");
      expectThat(columns.some((column) => column.name === 'body' && /text/i.test(column.type ?? '')), `notes has ${JSON.stringify(columns)}`);
    },
  },
  {
    name: 'read one table and add a row to another',
    prompt: 'Add an open order of 99.90 for Alan Turing.',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        // Orders name their customer by id: look Alan's up first.
        ...openTable(adminer, 'customers'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'orders') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'New item') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('customer_id', 'textbox'), text: idOf(ctx.toolResults, 'Alan Turing') } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('total', 'textbox'), text: '99.90' } }),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter('status', 'textbox'), text: 'open' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save') } }),
      ], { final: 'Added an open order of 99.90 for Alan Turing.' }),
    async verify(adminer) {
      const order = only(adminer.query('SELECT c.name, o.status FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.total = 99.9'), 'new order');
      expectThat(order.name === 'Alan Turing' && order.status === 'open', `the new order is ${JSON.stringify(order)}`);
    },
  },
  {
    name: 'search every table and read the answer',
    prompt: 'Who in the shop database lives in Vienna?',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...logIn(adminer),
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter(/^Search data in tables/, 'searchbox'), text: 'Vienna' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Search') } }),
        { tool: 'snapshot' },
        // The tables that hold a match are listed under the search box; each opens its matching rows.
        (ctx) => ({ tool: 'click', args: { ref: ctx.fieldAfter('Search', 'link') } }),
        { tool: 'snapshot' },
      ], { final: (ctx) => `${namesIn(ctx.snapshotText ?? '', 'Vienna').join(', ')} lives in Vienna.` }),
    async verify(adminer, _url, answer) {
      const row = only(adminer.query("SELECT name FROM customers WHERE city = 'Vienna'"), 'Vienna');
      expectThat(answer === `${row.name} lives in Vienna.`, `the answer ${JSON.stringify(answer)} is not ${row.name}`);
    },
  },
  {
    // Last: the sort task reads the orders.
    name: 'delete a row past the page’s own confirmation box',
    prompt: 'The shipped order of 250 was entered by mistake: delete it from the shop database.',
    start: '/',
    model: (adminer) =>
      scriptedAgent([
        ...openRow(adminer, 'orders', '250'),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Delete') } }),
        // Adminer asks "Are you sure?" in a confirm() box: Jawad answered Cancel and said how to
        // accept it; the user asked for exactly this deletion, so the model does.
        (ctx) =>
          /Are you sure\?.*click again with acceptDialog: true/.test(ctx.lastResult?.content ?? '')
            ? { tool: 'click', args: { ref: ctx.findRef('button', 'Delete'), acceptDialog: true } }
            : `Adminer did not ask before deleting: ${ctx.lastResult?.content ?? 'no result'}`,
        { tool: 'snapshot' },
      ], { final: (ctx) => (/Item has been deleted/.test(ctx.snapshotText ?? '') ? 'Deleted the order of 250.' : 'Adminer did not delete the order.') }),
    async verify(adminer, _url, answer) {
      expectThat(answer === 'Deleted the order of 250.', `the answer was ${JSON.stringify(answer)}`);
      expectThat(adminer.query('SELECT id FROM orders WHERE total = 250').length === 0, 'the order of 250 is still there');
      // The shop's other orders (tasks before this one may have added more).
      expectThat(adminer.query('SELECT id FROM orders WHERE total IN (120.5, 80, 42.25, 310, 19.99)').length === 5, 'another order went too');
    },
  },
];

/** The id (second cell) on the row of `name`, in the latest snapshot that shows that row. */
function idOf(results: readonly { tool: string; content: string }[], name: string): string {
  const snapshots = results.filter((result) => result.tool === 'snapshot').map((result) => result.content).reverse();
  for (const text of snapshots) {
    const row = tableRows(text).find((cells) => cells.includes(name));
    if (row) return row[1] ?? '';
  }
  return '';
}

/** The first record of the orders table (a select box and edit link, id, customer, total, status): "Order id, total." */
function topOrder(snapshotText: string): string {
  const cells = tableRows(snapshotText).find((row) => /^\d+$/.test(row[1] ?? '')) ?? [];
  return `Order ${cells[1] ?? '?'}, ${cells[3] ?? '?'}.`;
}

/** The cell after the first cell reading `first`, in the snapshot's tables. */
function cellAfter(snapshotText: string, first: string): string {
  return tableRows(snapshotText).find((row) => row[0] === first)?.[1] ?? '?';
}

/** The names on the rows whose city is `city` (name, email, city). */
function namesIn(snapshotText: string, city: string): string[] {
  return tableRows(snapshotText)
    .filter((row) => row.includes(city))
    .map((row) => row[row.indexOf(city) - 2] ?? '?');
}
