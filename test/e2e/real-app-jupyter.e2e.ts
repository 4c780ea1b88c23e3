/**
 * Real tasks on a real Jupyter Notebook (Debian's package, installed by this test when missing,
 * with a Python kernel): the agent with a scripted model that reads each snapshot for its targets,
 * checked in the notebook folder. And what the notebook's menus show the model.
 */
import { describe, expect, it } from 'vitest';
import { findRef } from '../support/scripted-model';
import { JUPYTER_PASSWORD, startJupyter } from '../support/real-apps/jupyter';
import { JUPYTER_TASKS } from '../support/real-apps/jupyter-tasks';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { describeAppTasks, useRealApp } from './support/real-app-suite';
import { runTool, snapshotText } from './support/run-tool';

describeAppTasks('Jupyter Notebook tasks', startJupyter, JUPYTER_TASKS);

for (const browserName of browsersUnderTest()) {
  describe(`Jupyter Notebook pages in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const started = useRealApp(startJupyter);
    const snapshot = () => snapshotText(suite.jawad);

    // The menu's rows are `<li id=run_cell role=none>` inside `<ul role=menu>`: what is in the way
    // of the toolbar is the menu, not a row of it (it once read `[covered by none "Run this cell…"]`).
    it('names an open menu as what covers the controls under it', async () => {
      const notebook = `${started().url}/notebooks/sales.ipynb`;
      await suite.jawad.openTab(`${started().url}/login?next=${encodeURIComponent('/notebooks/sales.ipynb')}`);
      let text = await snapshot();
      const filled = await runTool(suite.jawad, 'fill', { ref: findRef(text, 'textbox', 'Password:'), text: JUPYTER_PASSWORD });
      expect(filled.success, `${JSON.stringify(filled)}\n${text}`).toBe(true);
      const loggedIn = await runTool(suite.jawad, 'click', { ref: findRef(text, 'button', 'Log in') });
      expect(loggedIn.success, JSON.stringify(loggedIn)).toBe(true);
      text = await snapshotText(suite.jawad, { waitForText: 'Python 3 (ipykernel)' });
      expect(text, notebook).toContain('Save and Checkpoint');
      // A narrow window folds the menu bar behind a "Menu" button.
      if (!findRef(text, 'link', 'Cell')) {
        await runTool(suite.jawad, 'click', { ref: findRef(text, 'button', 'Menu') });
        text = await snapshot();
      }
      await runTool(suite.jawad, 'click', { ref: findRef(text, 'link', 'Cell') });
      text = await snapshot();
      expect(findRef(text, 'menuitem', 'Run All'), text).toBeDefined();
      const covered = text.split('\n').filter((line) => line.includes('[covered by'));
      expect(covered.length, text).toBeGreaterThan(0);
      for (const line of covered) expect(line).toMatch(/\[covered by menu "Cell"\]$/);
    });
  });
}
