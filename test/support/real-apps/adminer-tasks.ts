/**
 * Realistic tasks on a real Adminer over a SQLite shop database (test/support/real-apps/adminer.ts),
 * each played by a scripted model that finds its targets by role and name in the snapshot text,
 * and each checked in the database file itself.
 */
import { scriptedAgent, type ScriptStep } from '../scripted-model';
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
        ...logIn(adminer),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'select customers') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'edit') } }),
        { tool: 'snapshot' },
      ], { final: 'Ada Lovelace now lives in Paris.' }),
    async verify(adminer) {
      const row = only(adminer.query("SELECT city FROM customers WHERE name = 'Ada Lovelace'"), 'Ada Lovelace');
      expectThat(row.city === 'Paris', `her city is ${row.city}`);
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
      ], { final: (ctx) => `open orders: ?` }),
    async verify(adminer, _url, answer) {
      const row = only(adminer.query("SELECT count(*) AS n FROM orders WHERE status = 'open'"), 'count');
      expectThat(answer.includes(`${row.n} orders are open`), `the answer ${JSON.stringify(answer)} does not give ${row.n}`);
    },
  },
];
