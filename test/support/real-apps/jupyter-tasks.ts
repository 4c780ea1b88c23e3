/**
 * Realistic tasks on a real Jupyter Notebook (test/support/real-apps/jupyter.ts), each played by a
 * scripted model that finds its targets by role and name in the snapshot text, and each checked in
 * the notebook folder: the notebooks' saved cells and outputs, the files.
 *
 * The file tree opens a notebook in a tab of its own; the agent goes on in it.
 */
import { findRef, readBack, scriptedAgent, snapshotEntries, type AgentContext, type ScriptStep } from '../scripted-model';
import { expectThat, type AppTask } from './app-task';
import { JUPYTER_PASSWORD, SALES_CSV, type Jupyter } from './jupyter';

const logIn: ScriptStep[] = [
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', 'Password:'), text: JUPYTER_PASSWORD } }),
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Log in') } }),
  { tool: 'snapshot' },
];

/** From the file tree, a notebook in its own tab, once its kernel is up (the page says which kernel it runs). */
const openNotebook = (name: string): ScriptStep[] => [
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', name) } }),
  { tool: 'snapshot', args: { waitForText: 'Python 3 (ipykernel)' } },
];

/**
 * A menu of the notebook's menu bar, then one of its items. In a narrow window the notebook folds
 * its menu bar behind a "Menu" button: the model opens it first when the menu is not in sight (the
 * first step only looks again when it is).
 */
const fromMenu = (menu: string, item: RegExp): ScriptStep[] => [
  (ctx) => (findRef(ctx.snapshotText ?? '', 'link', menu) ? { tool: 'snapshot' } : { tool: 'click', args: { ref: ctx.findRef('button', 'Menu') } }),
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', menu) } }),
  { tool: 'snapshot' },
  (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('menuitem', item) } }),
];

/** The code cells' text boxes, in the order the notebook shows them. */
function cellBoxes(ctx: AgentContext): string[] {
  return snapshotEntries(ctx.snapshotText ?? '')
    .filter((entry) => entry.role === 'textbox' && entry.name === '')
    .map((entry) => entry.ref);
}

const EXPECTED_TOTAL = SALES_CSV.trim().split('\n').slice(1).reduce((sum, row) => sum + Number(row.split(',')[1]), 0);
const BIG_REGIONS_TOTAL = SALES_CSV.trim().split('\n').slice(1).map((row) => Number(row.split(',')[1])).filter((amount) => amount > 1000).reduce((a, b) => a + b, 0);

export const JUPYTER_TASKS: AppTask<Jupyter>[] = [
  {
    name: 'log in, run a notebook from its menu and read its result',
    prompt: 'Run the sales notebook and tell me the total sales.',
    start: '/tree',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...openNotebook('sales.ipynb'),
        ...fromMenu('Cell', /^Run All$/),
        // The code itself says "Total sales:"; the kernel is done once no cell is marked running.
        { tool: 'snapshot', args: { waitForTextGone: 'In [*]:' } },
      ], { final: (ctx) => `The notebook says: ${/Total sales: \d+/.exec(ctx.snapshotText ?? '')?.[0] ?? '(no total)'}` }),
    async verify(_jupyter, _finalUrl, answer) {
      expectThat(answer === `The notebook says: Total sales: ${EXPECTED_TOTAL}`, `the answer was ${JSON.stringify(answer)}`);
    },
  },
  {
    name: 'change the code of a cell, run it and save the notebook',
    prompt: 'In the sales notebook, count only regions that sold more than 1000, run it and save it.',
    start: '/tree',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...openNotebook('sales.ipynb'),
        // The cell that sums, whole (the snapshot shows its start), then the same with a condition.
        (ctx) => ({ tool: 'get', args: { ref: cellBoxes(ctx)[1], what: 'value' } }),
        (ctx) => ({ tool: 'fill', args: { ref: cellBoxes(ctx)[1], text: readBack(ctx).replace('for row in rows)', "for row in rows if int(row['amount']) > 1000)") } }),
        ...fromMenu('Cell', /^Run All$/),
        // The code itself says "Total sales:"; the kernel is done once no cell is marked running.
        { tool: 'snapshot', args: { waitForTextGone: 'In [*]:' } },
        // Beside its name the notebook says "(unsaved changes)" until the server has the file.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save and Checkpoint') } }),
        { tool: 'snapshot', args: { waitForTextGone: 'unsaved changes' } },
      ], { final: 'Counted only the regions above 1000, ran and saved the notebook.' }),
    async verify(jupyter) {
      const cells = jupyter.notebook('sales.ipynb') ?? [];
      const sum = cells[2];
      expectThat(sum?.source === "total = sum(int(row['amount']) for row in rows if int(row['amount']) > 1000)\nprint(f'Total sales: {total}')", `the cell is now ${JSON.stringify(sum?.source)}`);
      expectThat(sum?.outputs.join('') === `Total sales: ${BIG_REGIONS_TOTAL}\n`, `its saved output is ${JSON.stringify(sum?.outputs)}`);
    },
  },
  {
    name: 'create a notebook from the New menu, write and run code, rename and save it',
    prompt: 'Make a new Python notebook called squares that prints the squares of 1 to 5.',
    start: '/tree',
    model: () =>
      scriptedAgent([
        ...logIn,
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'New') } }),
        { tool: 'snapshot' },
        // The notebook opens in a tab of its own.
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('menuitem', /^(python3|Python 3)/) } }),
        { tool: 'snapshot', args: { waitForText: 'Python 3 (ipykernel)' } },
        (ctx) => ({ tool: 'fill', args: { ref: cellBoxes(ctx)[0], text: 'print([n * n for n in range(1, 6)])' } }),
        (ctx) => ({ tool: 'press_key', args: { ref: cellBoxes(ctx)[0], keys: 'Shift+Enter' } }),
        { tool: 'snapshot', args: { waitForText: '16, 25' } },
        ...fromMenu('File', /^Rename/),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: ctx.fieldAfter(/Enter a new notebook name/, 'textbox'), text: 'squares' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Rename') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save and Checkpoint') } }),
        { tool: 'snapshot', args: { waitForTextGone: 'unsaved changes' } },
      ], { final: 'Created the notebook “squares”; it prints 1, 4, 9, 16, 25.' }),
    async verify(jupyter) {
      const cells = jupyter.notebook('squares.ipynb');
      expectThat(cells !== null, `no squares.ipynb among ${jupyter.files().join(', ')}`);
      const first = cells![0];
      expectThat(first?.source === 'print([n * n for n in range(1, 6)])', `its first cell is ${JSON.stringify(first?.source)}`);
      expectThat(first?.outputs.join('') === '[1, 4, 9, 16, 25]\n', `its saved output is ${JSON.stringify(first?.outputs)}`);
    },
  },
  {
    name: 'select a file in the tree and delete it, confirming in a dialog',
    prompt: 'Delete old-draft.txt.',
    start: '/tree',
    model: () =>
      scriptedAgent([
        ...logIn,
        // Each row starts with its checkbox, then the file's link.
        (ctx) => ({ tool: 'check', args: { ref: checkboxBefore(ctx, 'old-draft.txt') } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', /^Delete/) } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRefInLine(/^\s*- button "Delete"/, 'button', 'Delete') } }),
        { tool: 'snapshot', args: { waitForTextGone: 'old-draft.txt' } },
      ], { final: 'Deleted old-draft.txt.' }),
    async verify(jupyter) {
      const files = jupyter.files();
      expectThat(!files.includes('old-draft.txt'), `the folder still holds ${files.join(', ')}`);
      expectThat(files.includes('sales.csv') && files.includes('notes.ipynb'), `other files went too: ${files.join(', ')}`);
    },
  },
  {
    name: 'turn a cell into Markdown with the toolbar’s cell type and save',
    prompt: 'In the notes notebook, make the “Meeting notes” cell a Markdown heading and save.',
    start: '/tree',
    model: () =>
      scriptedAgent([
        ...logIn,
        ...openNotebook('notes.ipynb'),
        // Selecting a cell is clicking into it; the toolbar's cell type is then that cell's.
        (ctx) => ({ tool: 'click', args: { ref: cellBoxes(ctx)[0] } }),
        (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', /cell type/), option: 'Markdown' } }),
        { tool: 'snapshot' },
        (ctx) => ({ tool: 'fill', args: { ref: cellBoxes(ctx)[0], text: '# Meeting notes' } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Run') } }),
        (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Save and Checkpoint') } }),
        { tool: 'snapshot', args: { waitForTextGone: 'unsaved changes' } },
      ], { final: 'The “Meeting notes” cell is now a Markdown heading.' }),
    async verify(jupyter) {
      const cells = jupyter.notebook('notes.ipynb') ?? [];
      expectThat(cells[0]?.type === 'markdown' && cells[0].source === '# Meeting notes', `the first cell is ${JSON.stringify(cells[0])}`);
      expectThat(cells[1]?.type === 'code' && cells[1].source === "print('hello')", `the second cell is ${JSON.stringify(cells[1])}`);
    },
  },
];

/** The checkbox on the line right before a file's link in the tree. */
function checkboxBefore(ctx: AgentContext, file: string): string {
  const lines = (ctx.snapshotText ?? '').split('\n');
  const at = lines.findIndex((line) => line.includes(`link "${file}"`));
  const ref = at > 0 ? snapshotEntries(lines[at - 1]!).find((entry) => entry.role === 'checkbox')?.ref : undefined;
  if (!ref) throw new Error(`scripted model: no checkbox before ${file} in:\n${ctx.snapshotText}`);
  return ref;
}
