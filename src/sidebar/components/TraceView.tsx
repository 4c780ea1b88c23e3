import type { TraceEntry } from '../../protocol';
import { formatTokens } from '../history-format';
import { closeTrace, exportTrace, state } from '../store';

const KIND_TEXT: Record<TraceEntry['kind'], string> = { 'user-message': 'Your message', answer: 'Answer', 'model-call': 'Model call', 'tool-call': 'Tool call' };

function Entry({ entry, opened }: { entry: TraceEntry; opened: boolean }) {
  const depth = entry.requestId.split(':').length - 1;
  return (
    <li class={opened ? 'trace-entry trace-opened' : 'trace-entry'} aria-current={opened ? 'true' : undefined} data-kind={entry.kind} data-request-id={entry.requestId} style={{ marginLeft: `${Math.min(depth, 6) * 10}px` }}>
      <span class="trace-head">
        <strong>{KIND_TEXT[entry.kind]}</strong> · {entry.component} · <time dateTime={new Date(entry.at).toISOString()}>{new Date(entry.at).toLocaleTimeString()}</time>
      </span>
      <span class="trace-title">{entry.title}</span>
      {entry.detail && <span class="trace-detail">{entry.detail}</span>}
      {entry.kind === 'tool-call' && (
        <span class="trace-harbor">
          Harbor: {entry.verdict}
          {entry.decision && <> → {entry.decision}</>} · {entry.status}
          {entry.site && <> · {entry.site}</>}
        </span>
      )}
      {entry.usage && (
        <span class="trace-usage">
          {entry.usage.provider}/{entry.usage.model} · {formatTokens(entry.usage)}
          {entry.usage.cost !== undefined && <> · ${entry.usage.cost.toFixed(4)}</>}
        </span>
      )}
      <code class="trace-id">{entry.requestId}</code>
    </li>
  );
}

/** The request-id chain behind an answer or a step: from the user's message to every model and tool call. */
export function TraceView() {
  const trace = state.value.trace;
  if (!trace) return null;
  return (
    <section class="trace" aria-label="Trace" role="dialog">
      <header>
        <h2>Trace of {trace.root}</h2>
        <button type="button" onClick={exportTrace}>
          Export JSON
        </button>
        <button type="button" class="link-button" onClick={closeTrace} aria-label="Close the trace">
          ✕
        </button>
      </header>
      <ol>
        {trace.entries.map((entry) => (
          <Entry key={`${entry.kind}:${entry.requestId}`} entry={entry} opened={entry.kind === 'tool-call' && entry.requestId === trace.fromRequestId} />
        ))}
      </ol>
    </section>
  );
}
