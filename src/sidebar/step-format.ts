/**
 * Words for the action log and the permission prompt. Pure, so the exact wording is unit-tested.
 * Everything a step carries from a page (names, URLs, typed text) is untrusted: these helpers only
 * shorten and reveal it, and the components render it as text, never as markup.
 */
import { clipText, oneLine, type AgentStep, type PermissionLevel, type StepDecision, type StepStatus, type StepTarget } from '../protocol';

export const STATUS_LABELS: Record<StepStatus, string> = {
  asking: 'Waiting for you',
  running: 'Running…',
  done: 'Done',
  failed: 'Failed',
  denied: 'Denied',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
};

export const STATUS_ICONS: Record<StepStatus, string> = {
  asking: '?',
  running: '…',
  done: '✓',
  failed: '✗',
  denied: '⊘',
  stopped: '■',
  interrupted: '⚠',
};

export const DECISION_LABELS: Record<StepDecision, string> = {
  'auto-approve': 'allowed automatically',
  'policy-deny': 'blocked by policy',
  'allow-once': 'allowed once',
  'allow-site': 'allowed on this site',
  'allow-session': 'allowed for this session',
  deny: 'denied by you',
  'deny-all': 'task stopped by you',
};

export const LEVEL_LABELS: Record<PermissionLevel, string> = {
  'read-only': 'read only',
  navigate: 'navigate',
  interact: 'interact',
  submit: 'submit',
};

/**
 * Bidi overrides and zero-width characters can make "evil.com" look like "live.com" or hide words
 * in typed text; the user must see what is really there, so each shows as its code point.
 */
const HIDDEN_CHARACTERS = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function revealHidden(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (char) => `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `“${oneLine(value)}”`;
  return oneLine(JSON.stringify(value) ?? String(value));
}

/**
 * One short line for a step's parameters: the element first (ref or selector, bare), then the rest
 * as `key: value`. "#go", "e12 · text: “Ada Lovelace”", "url: “https://example.com/”".
 */
export function summarizeParams(params: Record<string, unknown>, max = 80): string {
  const parts: string[] = [];
  for (const key of ['ref', 'selector'] as const) {
    if (typeof params[key] === 'string') parts.push(oneLine(params[key]));
  }
  for (const [key, value] of Object.entries(params)) {
    if (key === 'ref' || key === 'selector' || value === undefined) continue;
    parts.push(`${key}: ${describeValue(value)}`);
  }
  return revealHidden(clipText(parts.join(' · '), max));
}

/** "https://shop.example.com" → "shop.example.com"; the scheme matters only when it is not http(s). */
export function siteLabel(site: string): string {
  return site.replace(/^https?:\/\//, '');
}

/** The element as the page names it: `button “Add to cart”`. */
export function targetLabel(target: StepTarget, max = 120): string {
  const name = oneLine(target.name);
  const what = name ? `${target.role} “${revealHidden(clipText(name, max))}”` : target.role;
  return what || target.selector || target.ref || 'element';
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** The log's second line: what came of the step, or why it did not run. */
export function outcomeText(step: AgentStep): string | undefined {
  if (step.result?.error) return step.result.error.message;
  if (step.result) return step.result.summary;
  if (step.status === 'denied' && step.reasons.length > 0 && step.decision === 'policy-deny') return step.reasons.join(' ');
  return undefined;
}

/** The step's full parameters for its details: pretty JSON, shown as text. */
export function paramsJson(params: Record<string, unknown>): string {
  return JSON.stringify(params, null, 2) ?? '{}';
}
