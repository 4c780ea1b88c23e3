/**
 * The classic Jupyter Notebook (Debian's package, 6.4) with a Python kernel, a fresh notebook
 * folder per start behind a password: a file tree of checkboxes and a toolbar that appears with
 * them, notebooks whose cells are CodeMirror 5 editors, Bootstrap menus, modal dialogs, and a new
 * notebook opened in a tab of its own. Its state is the notebook folder: each notebook is a JSON
 * file (nbformat 4) holding its cells and, once saved, their outputs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { DEBIAN_PYTHON, ensurePackages } from './debian';
import { freePort } from '../ports';
import { startServerProcess, waitUntilServing } from './server-process';

export const JUPYTER_PASSWORD = 'Jawad-notebook-pass-3';

export interface NotebookCell {
  type: 'code' | 'markdown' | 'raw';
  source: string;
  /** A code cell's saved outputs, as text (stream text, or a result's text/plain). */
  outputs: string[];
}

export interface Jupyter extends RealApp {
  /** The files of the notebook folder. */
  files(): string[];
  /** A saved notebook's cells, or null when there is no such file. */
  notebook(name: string): NotebookCell[] | null;
}

/** Sales by region, for the notebook that sums them. */
export const SALES_CSV = 'region,amount\nNorth,1250\nSouth,980\nEast,1475\nWest,615\n';

const cell = (type: 'code' | 'markdown', source: string) => ({
  cell_type: type,
  metadata: {},
  source,
  ...(type === 'code' ? { execution_count: null, outputs: [] } : {}),
});

const notebookFile = (cells: ReturnType<typeof cell>[]) =>
  JSON.stringify({
    cells,
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  });

/** What the notebook folder holds at the start. */
const SEED: Record<string, string> = {
  'sales.csv': SALES_CSV,
  'sales.ipynb': notebookFile([
    cell('markdown', '# Sales by region'),
    cell('code', "import csv\nwith open('sales.csv') as f:\n    rows = list(csv.DictReader(f))"),
    cell('code', "total = sum(int(row['amount']) for row in rows)\nprint(f'Total sales: {total}')"),
  ]),
  'notes.ipynb': notebookFile([cell('code', 'Meeting notes'), cell('code', "print('hello')")]),
  'old-draft.txt': 'An early draft nobody needs.\n',
};

function outputText(output: { output_type: string; text?: string | string[]; data?: Record<string, string | string[]> }): string {
  const text = output.text ?? output.data?.['text/plain'] ?? '';
  return Array.isArray(text) ? text.join('') : text;
}

function readNotebook(path: string): NotebookCell[] | null {
  if (!existsSync(path)) return null;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { cells: Array<{ cell_type: NotebookCell['type']; source: string | string[]; outputs?: Parameters<typeof outputText>[0][] }> };
  const join = (source: string | string[]) => (Array.isArray(source) ? source.join('') : source);
  return parsed.cells.map((saved) => ({ type: saved.cell_type, source: join(saved.source), outputs: (saved.outputs ?? []).map(outputText) }));
}

export async function startJupyter(): Promise<Jupyter> {
  ensurePackages(['jupyter-notebook', 'python3-ipykernel']);
  const dir = mkdtempSync(join(tmpdir(), 'jawad-jupyter-'));
  const notebooks = join(dir, 'notebooks');
  mkdirSync(notebooks);
  for (const [name, content] of Object.entries(SEED)) writeFileSync(join(notebooks, name), content);
  const hash = execFileSync(DEBIAN_PYTHON, ['-c', 'import sys; from notebook.auth import passwd; print(passwd(sys.argv[1], "sha1"))', JUPYTER_PASSWORD], { encoding: 'utf8' }).trim();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Every Jupyter and IPython folder in the run's own: no user's settings, kernels or history.
  const env = { HOME: dir, JUPYTER_CONFIG_DIR: join(dir, 'config'), JUPYTER_DATA_DIR: join(dir, 'data'), JUPYTER_RUNTIME_DIR: join(dir, 'runtime'), IPYTHONDIR: join(dir, 'ipython'), PYTHONNOUSERSITE: '1' };
  const args = ['-m', 'notebook', '--no-browser', '--allow-root', `--ip=127.0.0.1`, `--port=${port}`, '--port-retries=0', `--notebook-dir=${notebooks}`, `--NotebookApp.password=${hash}`, "--NotebookApp.token=''"];
  const server = await startServerProcess(DEBIAN_PYTHON, args, env, (child) => waitUntilServing(`${url}/login`, child, 60_000));
  return {
    url,
    files: () => readdirSync(notebooks).filter((name) => !name.startsWith('.')),
    notebook: (name) => readNotebook(join(notebooks, name)),
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
