/**
 * Tool results on their way to the model and to the action log. Everything a tool returns may
 * carry page text (a snapshot, a read value, even an error naming the element that covers a
 * button), so all of it reaches the model inside the untrusted wrapper.
 */
import { describeDialogs, dialogNotes, dialogsIn, snapshotNotes, waitNote, type PageContent, type PageSnapshot, type StepTarget } from '../../protocol';
import { wrapPageContent, wrapUntrusted } from '../prompts';
import type { ToolOutcome } from '../tools/registry';

const MAX_RESULT_CHARS = 40_000;

function clip(text: string, max = MAX_RESULT_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}\n… (cut: ${text.length - max} more characters)` : text;
}

function isSnapshot(tool: string, data: unknown): data is PageSnapshot {
  return tool === 'snapshot' && typeof (data as PageSnapshot | undefined)?.text === 'string';
}

function isPage(tool: string, data: unknown): data is PageContent {
  return tool === 'read_page' && typeof (data as PageContent | undefined)?.markdown === 'string';
}

/**
 * What to do instead, by error code: a model told only that a call failed tends to repeat it. The
 * pattern says when the message already gives the way out.
 */
const NEXT_STEP: Partial<Record<string, { hint: string; given: RegExp }>> = {
  STALE_REF: { hint: 'Take a new snapshot and use a ref from it.', given: /new snapshot/i },
  NOT_FOUND: { hint: 'Take a new snapshot to see what the page holds now.', given: /snapshot/i },
  COVERED: {
    hint: 'Close or dismiss what covers it first — a new snapshot lists its buttons (Close, Accept, ×) — or press Escape for a menu or dialog, or scroll it clear; then try again.',
    given: /close it/i,
  },
  NOT_VISIBLE: { hint: 'Open the menu, tab or section that holds it (or scroll to it), take a new snapshot, then try again.', given: /open the/i },
  VALIDATION_ERROR: { hint: 'Correct the parameters as described and call again; refs come from the latest snapshot.', given: /call again/i },
  // A page's own alert() or confirm() box holds all of it, scripts included, until a person closes it.
  TIMEOUT: {
    hint: 'The page may still be busy, or showing a dialog box of its own (an alert or a confirmation) that only the user can close: take a new snapshot to see where things stand; if that times out too, ask the user to close any dialog box on the page.',
    given: /snapshot/i,
  },
};

function failureText(code: string, message: string): string {
  const next = NEXT_STEP[code];
  return next && !next.given.test(message) ? `${code}: ${message} ${next.hint}` : `${code}: ${message}`;
}

/** The page-derived text of a result, as plain text (for the model and for the data ledger). */
export function resultText(tool: string, outcome: ToolOutcome): string {
  if (!outcome.success) return failureText(outcome.error?.code ?? 'EXECUTION_ERROR', outcome.error?.message ?? 'failed');
  if (isSnapshot(tool, outcome.data)) {
    const { url, title, text } = outcome.data;
    return [`Page: ${title} (${url})`, ...snapshotNotes(outcome.data), text].join('\n');
  }
  if (isPage(tool, outcome.data)) return `${outcome.data.title}\n${outcome.data.url}\n${outcome.data.markdown}`;
  return [JSON.stringify(outcome.data ?? null), ...dialogNotes(outcome.data)].join('\n');
}

/** What the model is told about a call's outcome. */
export function resultForModel(tool: string, outcome: ToolOutcome): string {
  if (outcome.success && isPage(tool, outcome.data)) return wrapPageContent({ ...outcome.data, markdown: clip(outcome.data.markdown) });
  const heading = outcome.success ? `Result of ${tool}:` : `${tool} failed:`;
  return wrapUntrusted(heading, clip(resultText(tool, outcome)));
}

/** What the model is told when the user (or Harbor) said no. */
export function deniedForModel(tool: string, byUser: boolean): string {
  return byUser
    ? `PERMISSION_DENIED: the user denied ${tool}. Do not try to reach the same result another way; continue without it or finish and explain.`
    : `PERMISSION_DENIED: Jawad’s permission policy does not allow ${tool} here.`;
}

function quoted(target: StepTarget | undefined): string {
  if (!target) return '';
  const name = target.name ? ` “${target.name.slice(0, 80)}”` : '';
  return ` ${target.role}${name}`.trimEnd();
}

/** A short line for the action log. */
export function summarise(tool: string, outcome: ToolOutcome, target?: StepTarget): string {
  if (!outcome.success) return outcome.error?.message ?? 'Failed.';
  return stepSummary(tool, outcome.data, target) + boxesAnswered(outcome.data);
}

/** The page's own boxes Jawad answered in the step or since the one before, for the user to see (the first two). */
function boxesAnswered(data: unknown): string {
  const { dialogs, lateDialogs } = dialogsIn(data);
  const boxes = [...lateDialogs, ...dialogs];
  if (boxes.length === 0) return '';
  return ` — ${describeDialogs(boxes.slice(0, 2), 80)}${boxes.length > 2 ? `, and ${boxes.length - 2} more` : ''}`;
}

function stepSummary(tool: string, data: unknown, target?: StepTarget): string {
  if (isSnapshot(tool, data)) return `${data.refs.length} element${data.refs.length === 1 ? '' : 's'} on “${data.title.slice(0, 80)}”${data.partial ? ' (partial)' : ''}${data.waited ? ` ${waitNote(data.waited)}` : ''}`;
  if (isPage(tool, data)) return `Read “${data.title.slice(0, 80)}” (${data.markdown.length} characters)`;
  const record = (data ?? {}) as Record<string, unknown>;
  if (typeof record.value === 'string') return `${tool}${quoted(target)}: value is now “${record.value.slice(0, 80)}”`;
  if (typeof record.url === 'string') return `${tool}: ${record.url}`;
  return `${tool}${quoted(target)}: done`;
}
