import { useEffect, useState } from 'preact/hooks';
import type { ToolListing } from '../../protocol';
import { executeTool, loadTools, state, toolRunning } from '../store';
import { useDerivedState } from './use-derived-state';

interface PropertySchema {
  type?: string;
  format?: string;
  enum?: string[];
  default?: unknown;
  description?: string;
}

type Values = Record<string, string | boolean>;

function propertiesOf(tool: ToolListing): Array<[string, PropertySchema]> {
  const properties = (tool.function.parameters.properties ?? {}) as Record<string, PropertySchema>;
  return Object.entries(properties);
}

function initialValues(tool: ToolListing): Values {
  return Object.fromEntries(propertiesOf(tool).map(([name, schema]) => [name, schema.type === 'boolean' ? schema.default === true : schema.default === undefined ? '' : String(schema.default)]));
}

/** Form values → parameters: blank optional fields are left out, numbers become numbers. */
function toParameters(tool: ToolListing, values: Values): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  for (const [name, schema] of propertiesOf(tool)) {
    const value = values[name];
    if (value === '' || value === undefined) continue;
    parameters[name] = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
  }
  return parameters;
}

function Field({ name, schema, required, value, onChange }: { name: string; schema: PropertySchema; required: boolean; value: string | boolean; onChange: (value: string | boolean) => void }) {
  const label = `${name}${required ? ' (required)' : ''}`;
  if (schema.type === 'boolean') {
    return (
      <label class="inline">
        <input type="checkbox" name={name} checked={value === true} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
        {label}
      </label>
    );
  }
  if (schema.enum) {
    return (
      <label>
        {label}
        <select name={name} value={String(value)} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
          {!required && <option value="">—</option>}
          {schema.enum.map((option) => <option key={option} value={option}>{option}</option>)}
        </select>
      </label>
    );
  }
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const onInput = (e: Event) => onChange((e.target as HTMLInputElement).value);
  return (
    <label>
      {label}
      {numeric ? (
        <input name={name} type="number" value={String(value)} onInput={onInput} />
      ) : schema.format === 'uri' ? (
        <input name={name} type="url" value={String(value)} onInput={onInput} />
      ) : (
        <input name={name} type="text" value={String(value)} onInput={onInput} />
      )}
    </label>
  );
}

function Result() {
  const result = state.value.toolResult;
  if (!result) return null;
  return (
    <section class="tool-result" aria-label="Result" data-success={String(result.success)}>
      <p role="status">
        {result.success ? `${result.toolName} succeeded in ${result.duration} ms` : `${result.toolName} failed (${result.error?.code}) in ${result.duration} ms: ${result.error?.message}`}
      </p>
      {result.error?.details !== undefined && <pre class="tool-details">{JSON.stringify(result.error.details, null, 2)}</pre>}
      {result.success && <pre class="tool-data">{JSON.stringify(result.data, null, 2)}</pre>}
    </section>
  );
}

/** seed 002's tool tester: every registered tool, a form from its schema, run it on this tab. */
export function ToolsView() {
  const tools = state.value.tools;
  const [selected, setSelected] = useState<string>('');
  useEffect(loadTools, []);
  const tool = tools?.find((t) => t.function.name === selected) ?? tools?.[0];
  // Fresh defaults whenever another tool is chosen.
  const [values, setValues] = useDerivedState(tool?.function.name, (): Values => (tool ? initialValues(tool) : {}));
  if (!tools) return <p class="muted" role="status">Loading tools…</p>;
  if (!tool) return <p class="muted">No tools are registered.</p>;
  const required = new Set((tool.function.parameters.required ?? []) as string[]);
  return (
    <section class="tools" aria-label="Tools">
      <h2>Tools</h2>
      <label>
        Tool
        <select name="tool" value={tool.function.name} onChange={(e) => setSelected((e.target as HTMLSelectElement).value)}>
          {tools.map((t) => <option key={t.function.name} value={t.function.name}>{t.function.name}</option>)}
        </select>
      </label>
      <p class="hint">
        {tool.function.description} <span class={`level level-${tool.permission}`}>{tool.permission}</span>
      </p>
      <form
        class="tool-form"
        onSubmit={(event) => {
          event.preventDefault();
          executeTool(tool.function.name, toParameters(tool, values));
        }}
      >
        {propertiesOf(tool).map(([name, schema]) => (
          <Field key={name} name={name} schema={schema} required={required.has(name)} value={values[name] ?? ''} onChange={(value) => setValues({ ...values, [name]: value })} />
        ))}
        <div class="settings-actions">
          <button type="submit" class="primary" disabled={toolRunning.value}>
            {toolRunning.value ? 'Running…' : 'Run on this tab'}
          </button>
        </div>
      </form>
      <Result />
    </section>
  );
}
