import { DEFAULT_PARALLEL, MAX_PARALLEL } from '../../protocol';
import { saveResearchSettings, state } from '../store';

/** Research mode's default for new plans: how many pages its read-only steps read at once. */
export function ResearchSettingsForm() {
  const parallel = state.value.research?.parallel ?? DEFAULT_PARALLEL;
  return (
    <section class="research-settings" aria-labelledby="research-settings-title">
      <h2 id="research-settings-title">Research</h2>
      <label>
        Pages a research task reads at once{' '}
        <select data-testid="research-parallel" data-stored={String(parallel)} value={String(parallel)} onChange={(event) => saveResearchSettings(Number((event.target as HTMLSelectElement).value))}>
          {Array.from({ length: MAX_PARALLEL }, (_, index) => (
            <option key={index} value={String(index + 1)}>{index + 1}</option>
          ))}
        </select>
      </label>
      <p class="hint">Each plan starts with this; its plan card can change it for that task. Only steps that just read run side by side, each in a tab of its own.</p>
    </section>
  );
}
