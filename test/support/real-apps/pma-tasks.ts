/**
 * Realistic tasks on a real phpMyAdmin over a MariaDB shop database (test/support/real-apps/phpmyadmin.ts),
 * each played by a scripted model that finds its targets by role and name in the snapshot text,
 * and each checked in the database itself.
 *
 * phpMyAdmin loads most pages by script: a link's click starts a request, changes the address at
 * once (history.pushState) and swaps the page in when the answer comes; until then the page shows
 * the old view and "Loading…".
 */
import { type AgentContext, findRef, logInSteps, scriptedAgent, type ScriptStep, tableRows } from '../scripted-model';
import { expectThat, type AppTask } from './app-task';
import { PMA_LOGIN, type PhpMyAdmin } from './phpmyadmin';

/** phpMyAdmin's cookie login: its labels end with a colon, and the form is sent as a page load. */
const logIn = logInSteps({ user: 'Username:', password: 'Password:', button: 'Log in' }, PMA_LOGIN);

/** Logging in, then the shop database from the navigation tree on the left, which opens its tables under it. */
const openShop: ScriptStep[] = [
  ...logIn,
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'shop') } }),
  { tool: 'snapshot' },
];

/** The customers table's rows, opened from the navigation tree, where the shop's tables are listed under it. */
const openCustomers: ScriptStep[] = [
  ...openShop,
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'customers') } }),
  { tool: 'snapshot' },
];

/** The customers row of the database's table list, each row with the table's actions (Browse, Structure, Insert…). */
const CUSTOMERS_ROW = /^\| \[checkbox[^|]*\| \[link "customers"/;

/**
 * A tab of the page's menu (Structure, SQL, Insert…). In a narrow window phpMyAdmin folds the menu
 * behind a "Toggle navigation" button: the model opens it first when the tab is not in sight.
 * The same four steps either way (the first only looks again when the tab is in sight).
 */
const openTab = (name: string): ScriptStep[] => [
  (ctx) => (findRef(ctx.snapshotText ?? '', 'link', name) ? { tool: 'snapshot' } : { tool: 'click', args: { ref: ctx.findRef('button', 'Toggle navigation') } }),
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', name) } }),
  { tool: 'snapshot' },
];

/** The value's field on a column's row of the insert / edit form (`| city | varchar(100) | [combobox …] | … | [textbox …] |`), the first form's. */
const valueOf = (ctx: AgentContext, column: string) => ctx.findRefInLine(new RegExp(`^\\| ${column} \\|`), 'textbox', /.*/);

/** The form's own Go, on its last row beside Preview SQL and Reset. */
const go = (ctx: AgentContext) => ctx.findRefInLine('Preview SQL', 'button', 'Go');

/**
 * The query box of the SQL tab: "SQL query" (the name phpMyAdmin gives the field its CodeMirror
 * editor stands in for). In a snapshot that leaves the editor nameless (Playwright's), the field
 * right under "Run SQL query/queries on …", above the editor's buttons (on a table's tab, SELECT *,
 * SELECT, INSERT…; on a database's, Clear, Format…).
 */
function queryBox(ctx: AgentContext): string {
  const named = findRef(ctx.snapshotText ?? '', 'textbox', 'SQL query');
  if (named) return named;
  const lines = (ctx.snapshotText ?? '').split('\n');
  const from = lines.findIndex((line) => line.startsWith('Run SQL query/queries on'));
  const to = lines.findIndex((line, index) => index > from && findRef(line, 'button', /.*/) !== undefined);
  const ref = from < 0 ? undefined : findRef(lines.slice(from, to < 0 ? undefined : to).join('\n'), /^(textbox|searchbox)$/, /.*/);
  if (ref) return ref;
  throw new Error(`scripted model: no query box under "Run SQL query/queries on" in the latest snapshot:\n${ctx.snapshotText ?? '(no snapshot taken yet)'}`);
}

const OPEN_ORDERS_SQL = "SELECT COUNT(*) AS open_orders FROM orders WHERE status = 'open'";

/**
 * The number under the result's one column, open_orders: its header is a row of cells
 * (`| open_orders | |`), the value the first row of cells after it holding a number (`| 3 |`).
 */
function openOrders(snapshotText: string): string {
  const lines = snapshotText.split('\n');
  const header = lines.findIndex((line) => tableRows(line)[0]?.includes('open_orders'));
  if (header < 0) return '?';
  for (const line of lines.slice(header + 1)) {
    const number = tableRows(line)[0]?.find((cell) => /^\d+$/.test(cell));
    if (number) return number;
  }
  return '?';
}

/**
 * A value of the browse view read by its columns' headers, as a person reads a grid: the header is
 * the row of sort links (`| [link "Full texts" …] | | | | [link "id" …] | [link "name" …] | …`),
 * the value the `wanted` column's cell of the row whose `known` column holds `value`.
 */
function cellUnder(snapshotText: string, wanted: string, known: string, value: string): string {
  const rows = tableRows(snapshotText);
  const header = rows.find((cells) => cells.some((cell) => findRef(cell, 'link', wanted)));
  if (!header) return '?';
  const column = (name: string) => header.findIndex((cell) => findRef(cell, 'link', name) !== undefined);
  const row = rows.find((cells) => cells[column(known)] === value);
  return row?.[column(wanted)] ?? '?';
}

function only<T>(rows: T[], what: string): T {
  expectThat(rows.length === 1, `expected one ${what}, found ${rows.length}`);
  return rows[0]!;
}

/**
 * The columns an index covers, from the table structure's Indexes table: a multi-column index is
 * one row per column, its Keyname, Type and actions cells spanning them all (`rowspan`), so the
 * rows after its first leave those columns empty and carry only the next Column.
 */
function indexColumns(snapshotText: string, index: string): string {
  const rows = tableRows(snapshotText);
  const header = rows.findIndex((cells) => cells.includes('Keyname') && cells.includes('Column'));
  if (header < 0) return '?';
  const keyname = rows[header]!.indexOf('Keyname');
  const column = rows[header]!.indexOf('Column');
  const first = rows.findIndex((cells, at) => at > header && cells[keyname] === index);
  if (first < 0) return '?';
  const columns = [rows[first]![column]];
  for (const cells of rows.slice(first + 1)) {
    if (cells[keyname] !== '') break;
    columns.push(cells[column]);
  }
  return columns.join(', ');
}

export const PMA_TASKS: AppTask<PhpMyAdmin>[] = [
  {
    name: 'edit a row from the navigation tree',
    prompt: `Log in to phpMyAdmin as ${PMA_LOGIN.user} (password ${PMA_LOGIN.password}): Alan Turing moved to Cambridge, change his city in the shop database.`,
    start: '/',
    model: () =>
      scriptedAgent([
        // The tree now lists the shop's tables; a table's name opens its rows.
        ...openCustomers,
        // Every row has its own Edit link: the one on Alan's line.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine('Alan Turing', 'link', 'Edit') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: valueOf(ctx, 'city'), text: 'Cambridge' } }),
        (ctx) => ({ tool: 'click', args: { ref: go(ctx) } }),
        { tool: 'snapshot' },
      ], { final: 'Alan Turing now lives in Cambridge.' }),
    async verify(pma) {
      const row = only(pma.query("SELECT city FROM customers WHERE name = 'Alan Turing'"), 'Alan Turing');
      expectThat(row.city === 'Cambridge', `his city is ${row.city}`);
      const others = pma.query("SELECT name FROM customers WHERE city = 'Cambridge'");
      expectThat(others.length === 1, `${others.length} rows say Cambridge`);
    },
  },
  {
    name: 'count rows with a query in the SQL tab',
    prompt: `Log in to phpMyAdmin as ${PMA_LOGIN.user} (password ${PMA_LOGIN.password}) and find out with an SQL query how many orders in the shop database are still open.`,
    start: '/',
    model: () =>
      scriptedAgent([
        ...openShop,
        ...openTab('SQL'),
        // The query box is a CodeMirror editor holding a sample query: fill replaces it.
        (ctx) => ({ tool: 'fill', args: { ref: queryBox(ctx), text: OPEN_ORDERS_SQL } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Go') } }),
        { tool: 'snapshot' },
      ], { final: (ctx) => `${openOrders(ctx.snapshotText ?? '')} orders are open.` }),
    async verify(pma, _url, answer) {
      const row = only(pma.query("SELECT COUNT(*) AS n FROM orders WHERE status = 'open'"), 'count');
      expectThat(answer === `${row.n} orders are open.`, `the answer ${JSON.stringify(answer)} does not give ${row.n}`);
    },
  },
  {
    name: 'read a value from the rows by its column',
    prompt: `Log in to phpMyAdmin as ${PMA_LOGIN.user} (password ${PMA_LOGIN.password}) and tell me the email address of the shop's customer who lives in Vienna.`,
    start: '/',
    model: () =>
      scriptedAgent([
        ...openCustomers,
      ], { final: (ctx) => cellUnder(ctx.snapshotText ?? '', 'email', 'city', 'Vienna') }),
    async verify(pma, _url, answer) {
      const row = only(pma.query("SELECT email FROM customers WHERE city = 'Vienna'"), 'customer in Vienna');
      expectThat(answer === row.email, `the answer ${JSON.stringify(answer)} is not ${row.email}`);
    },
  },
  {
    name: 'read the columns of an index from the table structure',
    prompt: `Log in to phpMyAdmin as ${PMA_LOGIN.user} (password ${PMA_LOGIN.password}) and tell me which columns the index name_city of the shop's customers table covers, in order.`,
    start: '/',
    model: () =>
      scriptedAgent([
        ...openShop,
        // The database's tables, a row each with its actions: Structure on the customers row.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine(CUSTOMERS_ROW, 'link', 'Structure') } }),
        { tool: 'snapshot' },
      ], { final: (ctx) => indexColumns(ctx.snapshotText ?? '', 'name_city') }),
    async verify(pma, _url, answer) {
      const columns = pma.query("SELECT column_name AS name FROM information_schema.statistics WHERE table_schema = 'shop' AND table_name = 'customers' AND index_name = 'name_city' ORDER BY seq_in_index");
      const expected = columns.map((row) => row.name).join(', ');
      expectThat(columns.length === 2 && answer === expected, `the answer ${JSON.stringify(answer)} is not ${JSON.stringify(expected)}`);
    },
  },
  {
    name: 'insert a row from the database structure',
    prompt: `Log in to phpMyAdmin as ${PMA_LOGIN.user} (password ${PMA_LOGIN.password}) and add the customer Grace Hopper, grace@example.com, from Arlington to the shop database.`,
    start: '/',
    model: () =>
      scriptedAgent([
        ...openShop,
        // The database's tables, a row each with its actions: Insert on the customers row.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine(CUSTOMERS_ROW, 'link', 'Insert') } }),
        { tool: 'snapshot' },
        // The form offers two rows; the second is ignored unless filled.
        (ctx) => ({ tool: 'fill', args: { ref: valueOf(ctx, 'name'), text: 'Grace Hopper' } }),
        (ctx) => ({ tool: 'fill', args: { ref: valueOf(ctx, 'email'), text: 'grace@example.com' } }),
        (ctx) => ({ tool: 'fill', args: { ref: valueOf(ctx, 'city'), text: 'Arlington' } }),
        (ctx) => ({ tool: 'click', args: { ref: go(ctx) } }),
        { tool: 'snapshot' },
      ], { final: 'Added Grace Hopper.' }),
    async verify(pma) {
      const row = only(pma.query("SELECT email, city FROM customers WHERE name = 'Grace Hopper'"), 'Grace Hopper');
      expectThat(row.email === 'grace@example.com' && row.city === 'Arlington', `the row holds ${JSON.stringify(row)}`);
      const count = only(pma.query('SELECT COUNT(*) AS n FROM customers'), 'count');
      expectThat(count.n === '6', `the table has ${count.n} rows, not 6`);
    },
  },
];
