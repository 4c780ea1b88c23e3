import { useState } from 'preact/hooks';
import {
  type ConnectionCheck,
  defaultSettingsFor,
  PROVIDER_IDS,
  PROVIDER_PRESETS,
  ProviderSettings,
  type ProviderId,
  type PublicSettings,
} from '../../protocol';
import { saveSettings, state, testConnection, testing } from '../store';
import { useDerivedState } from './use-derived-state';
import { saveNote, useSave } from './use-save';
import { GrantsSettings } from './GrantsSettings';
import { ResearchSettingsForm } from './ResearchSettingsForm';
import { VoiceSettingsForm } from './VoiceSettingsForm';

interface Form {
  provider: ProviderId;
  baseUrl: string;
  model: string;
  /** '' keeps the saved key; `removeKey` deletes it. */
  apiKey: string;
  removeKey: boolean;
  timeoutSeconds: string;
  temperature: string;
}

function formFrom(saved: PublicSettings | null | undefined): Form {
  const base = saved ?? defaultSettingsFor('openai');
  return {
    provider: base.provider,
    baseUrl: base.baseUrl,
    model: base.model,
    apiKey: '',
    removeKey: false,
    timeoutSeconds: String(base.timeoutSeconds),
    temperature: base.temperature === undefined ? '' : String(base.temperature),
  };
}

function toSettings(form: Form, saved: PublicSettings | null | undefined) {
  const keepSaved = saved?.hasApiKey && saved.provider === form.provider && !form.removeKey && form.apiKey === '';
  return ProviderSettings.safeParse({
    provider: form.provider,
    baseUrl: form.baseUrl,
    model: form.model,
    ...(keepSaved ? {} : { apiKey: form.removeKey ? '' : form.apiKey.trim() }),
    timeoutSeconds: Number(form.timeoutSeconds) || 60,
    ...(form.temperature.trim() === '' ? {} : { temperature: Number(form.temperature) }),
  });
}

const CHECK_LABELS: Record<ConnectionCheck['name'], string> = { reachable: 'Server', key: 'Key', model: 'Model', streaming: 'Streaming', tools: 'Tools' };
const STATUS_MARKS: Record<ConnectionCheck['status'], string> = { ok: 'OK', warn: 'Note', fail: 'Failed', skipped: 'Skipped' };

/** What Test connection checked, one line each. */
function CheckList({ checks }: { checks: ConnectionCheck[] }) {
  return (
    <ul class="connection-checks" aria-label="What was checked">
      {checks.map((check) => (
        <li key={check.name} data-check={check.name} data-status={check.status}>
          <span class="check-name">{CHECK_LABELS[check.name]}</span>
          <span class="check-status">{STATUS_MARKS[check.status]}</span>
          <span class="check-detail">{check.detail}</span>
        </li>
      ))}
    </ul>
  );
}

/** The server's own list of models, filled by Test connection: choosing one sets the model field. */
function ModelPicker({ models, current, choose }: { models: string[]; current: string; choose: (model: string) => void }) {
  return (
    <label>
      Models on this server ({models.length})
      <select name="modelPicker" value={models.find((model) => model === current || model === `${current}:latest`) ?? ''} onChange={(e) => {
        const value = (e.target as HTMLSelectElement).value;
        if (value) choose(value);
      }}>
        <option value="">Choose a model…</option>
        {models.map((model) => <option key={model} value={model}>{model}</option>)}
      </select>
    </label>
  );
}

export function SettingsView() {
  const saved = state.value.settings;
  const result = state.value.testResult;
  const [form, setForm] = useDerivedState(saved, formFrom);
  const [errors, setErrors] = useState<string[]>([]);
  const [save, setSave] = useSave();

  const preset = PROVIDER_PRESETS[form.provider];
  const update = (changes: Partial<Form>) => {
    setSave(undefined);
    setForm({ ...form, ...changes });
  };
  const chooseProvider = (provider: ProviderId) => {
    const defaults = defaultSettingsFor(provider);
    update({ provider, baseUrl: defaults.baseUrl, model: defaults.model, apiKey: '', removeKey: false });
  };
  const parsed = () => {
    const settings = toSettings(form, saved);
    setErrors(settings.success ? [] : settings.error.issues.map((issue) => issue.message));
    return settings.success ? settings.data : undefined;
  };
  const keyPlaceholder = saved?.hasApiKey && saved.provider === form.provider && !form.removeKey
    ? `Saved (${saved.apiKeyHint ?? '••••'}) — type to replace`
    : preset.needsKey ? 'Required' : 'Optional for local servers';

  return (
    <div class="settings-page">
    <form
      class="settings"
      aria-label="Settings"
      onSubmit={(event) => {
        event.preventDefault();
        const settings = parsed();
        if (settings) {
          setSave(saveSettings(settings));
        }
      }}
    >
      <h2>Model provider</h2>
      <label>
        Provider
        <select name="provider" value={form.provider} onChange={(e) => chooseProvider((e.target as HTMLSelectElement).value as ProviderId)}>
          {PROVIDER_IDS.map((id) => (
            <option key={id} value={id}>
              {PROVIDER_PRESETS[id].label}
            </option>
          ))}
        </select>
      </label>
      <p class="hint">{preset.hint}</p>
      <label>
        Base URL
        <input name="baseUrl" type="url" required value={form.baseUrl} onInput={(e) => update({ baseUrl: (e.target as HTMLInputElement).value })} />
      </label>
      <label>
        Model
        <input name="model" required list="model-options" value={form.model} onInput={(e) => update({ model: (e.target as HTMLInputElement).value })} />
        <datalist id="model-options">{result?.models?.map((model) => <option key={model} value={model} />)}</datalist>
      </label>
      {result?.models && result.models.length > 0 && <ModelPicker models={result.models} current={form.model} choose={(model) => update({ model })} />}
      <label>
        API key
        <input
          name="apiKey"
          type="password"
          autocomplete="off"
          placeholder={keyPlaceholder}
          value={form.apiKey}
          onInput={(e) => update({ apiKey: (e.target as HTMLInputElement).value, removeKey: false })}
        />
      </label>
      {saved?.hasApiKey && saved.provider === form.provider && (
        <button type="button" class="link-button" onClick={() => update({ apiKey: '', removeKey: true })}>
          Remove saved key
        </button>
      )}
      <details>
        <summary>Advanced</summary>
        <label>
          Timeout (seconds)
          <input name="timeoutSeconds" type="number" min={1} max={600} value={form.timeoutSeconds} onInput={(e) => update({ timeoutSeconds: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          Temperature (blank: the model’s default)
          <input name="temperature" type="number" min={0} max={2} step={0.1} value={form.temperature} onInput={(e) => update({ temperature: (e.target as HTMLInputElement).value })} />
        </label>
      </details>
      {errors.length > 0 && (
        <ul class="form-errors" role="alert">
          {errors.map((error) => <li key={error}>{error}</li>)}
        </ul>
      )}
      <div class="settings-actions">
        <button
          type="button"
          class="secondary"
          disabled={testing.value}
          onClick={() => {
            const settings = parsed();
            if (settings) testConnection(settings);
          }}
        >
          {testing.value ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" class="primary">
          Save
        </button>
      </div>
      <p class="test-result" role="status" data-success={result ? String(result.success) : undefined} data-save={save?.status}>
        {result?.success && `Connected${result.latencyMs === undefined ? '' : ` in ${result.latencyMs} ms`}.`}
        {result && !result.success && result.error}
        {!result && saveNote(save, 'Saved.')}
      </p>
      {result?.checks && <CheckList checks={result.checks} />}
      <p class="hint">Your key is kept in the extension’s own storage, out of reach of web pages, and sent only to the base URL above.</p>
    </form>
    <VoiceSettingsForm />
    <ResearchSettingsForm />
    <GrantsSettings />
    </div>
  );
}
