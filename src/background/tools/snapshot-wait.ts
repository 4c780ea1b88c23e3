/**
 * A snapshot taken once the page shows (or no longer shows) some text: what a model asks for when
 * an application puts its answer on screen later than anything Jawad can see coming (a timer, a
 * toast after a queued job, a "Saving…" that turns into "Saved"). Pure: the snapshot tool hands in
 * how to take a snapshot, how to pause and the clock.
 */
import { DEFAULT_WAIT_SECONDS, JawadError, oneLine, unfolded, type Waited } from '../../protocol';
import { siteOf } from '../harbor/site';

/** The shortest pause between two looks; a page whose snapshot takes longer gets as long a rest. */
export const WAIT_POLL_MS = 100;

/** What to wait for: text the page must show, text it must stop showing, or (neither) just time. */
export interface WaitFor {
  text?: string;
  gone?: string;
  seconds?: number;
}

interface Looked {
  url: string;
  text: string;
}

export interface WaitDeps<S extends Looked> {
  /** The first look also waits for what the tab's last action set off; later ones only read. */
  take(first: boolean): Promise<S>;
  pause(ms: number): Promise<void>;
  now(): number;
  signal: AbortSignal;
  /** The address the step was allowed on: the wait ends if the tab leaves its site. */
  from: string;
}

const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
/** Something Jawad wrote in square brackets: the page's own brackets are made round, so any `[…]` is one. */
const BRACKETED = new RegExp(String.raw`\[(?:[^\]"]|${QUOTED})*\]`, 'g');
/** An inline control, `[link "name" ref=e5 … value="…"]`: its name and value are what a reader sees. */
const INLINE_CONTROL = new RegExp(String.raw`^\[[a-z]+(?: (${QUOTED}))? ref=`);
/** A control on a line of its own, `- button "name" [ref=e3] …` (only Jawad writes `[ref=`: a page's `- item` is text). */
const CONTROL_LINE = new RegExp(String.raw`^- [a-z]+(?: (${QUOTED}))?(?= \[ref=(?:f\d+)?e\d+\])`);
const VALUE = new RegExp(String.raw`\bvalue=(${QUOTED})`, 'g');
/** After a control line's name: its marks, attributes and options, each read whole (a quoted value may hold a fold mark's brackets). */
const CONTROL_PARTS = new RegExp(String.raw`\bvalue=(${QUOTED})|\[(?:[^\]"]|${QUOTED})*\]|${QUOTED}`, 'g');

function unquote(quoted: string | undefined): string {
  if (!quoted) return '';
  try {
    return unfolded(JSON.parse(quoted) as string);
  } catch {
    return '';
  }
}

/** The name and value an inline control shows; nothing for a mark (a state, `covered by …`, options). */
function inlineShown(bracketed: string): string {
  const control = INLINE_CONTROL.exec(bracketed);
  if (!control) return ' ';
  const values = [...bracketed.matchAll(VALUE)].map((match) => unquote(match[1]));
  return ` ${[unquote(control[1]), ...values].join(' ')} `;
}

function lineShown(raw: string): string {
  const line = raw.trim();
  if (/^- (note|iframe)\b/.test(line)) return '';
  const control = CONTROL_LINE.exec(line);
  if (control) {
    const values = [...line.slice(control[0].length).matchAll(CONTROL_PARTS)].filter((match) => match[1]).map((match) => unquote(match[1]));
    return [unquote(control[1]), ...values].join(' ');
  }
  const text = line.replace(/^#{1,6} /, '').replace(BRACKETED, inlineShown);
  // A table row `| cell | a \| b |`: its bars are the outline's, but for those a cell wrote.
  return line.startsWith('|') ? text.replace(/(?<!\\)\|/g, ' ').replace(/\\\|/g, '|') : text;
}

/**
 * The words a snapshot's outline shows a reader, without Jawad's own marks (roles, refs, states,
 * addresses): `followed the [link "north ridge" ref=e5] past the tarn` reads "followed the north
 * ridge past the tarn", so text the model quotes from the page is found however it was written.
 */
export function shownText(outline: string): string {
  return outline.split('\n').map(lineShown).join(' ');
}

/** Case and spacing aside, as people (and Playwright's getByText) match text; brackets made round as the outline does. */
function normalised(text: string): string {
  return oneLine(text.replace(/\[/g, '(').replace(/\]/g, ')')).toLowerCase();
}

export function outlineShows(outline: string, text: string): boolean {
  return normalised(shownText(outline)).includes(normalised(text));
}

/**
 * Takes snapshots until the condition holds or the time is up, and returns the last one with how
 * the wait went. A look that fails while time is left (the page between two documents) is taken
 * again; a tab that went to another site stops the wait: the step was allowed on this site only.
 */
/** How long a wait may last: as long as told, else the default for text and nothing for no wait at all. */
export function waitSecondsOf(wait: WaitFor): number {
  return wait.seconds ?? (wait.text || wait.gone ? DEFAULT_WAIT_SECONDS : 0);
}

export async function waitForSnapshot<S extends Looked>(wait: WaitFor, deps: WaitDeps<S>): Promise<S & { waited: Waited }> {
  const started = deps.now();
  const ms = () => Math.round(deps.now() - started);
  const seconds = waitSecondsOf(wait);
  const deadline = started + seconds * 1000;
  if (!wait.text && !wait.gone) {
    await deps.pause(seconds * 1000);
    const snapshot = await deps.take(true);
    return { ...snapshot, waited: { met: true, ms: ms() } };
  }
  const met = (outline: string) => (!wait.text || outlineShows(outline, wait.text)) && (!wait.gone || !outlineShows(outline, wait.gone));
  const waited = (met: boolean): Waited => ({ ...(wait.text ? { text: wait.text } : {}), ...(wait.gone ? { gone: wait.gone } : {}), met, ms: ms() });
  // A tab whose address the background could not read is held to the site of its first look.
  let site = siteOf(deps.from) || undefined;
  for (let first = true; ; first = false) {
    const lookStarted = deps.now();
    let snapshot: S;
    try {
      snapshot = await deps.take(first);
    } catch (error) {
      if (deps.signal.aborted || deps.now() >= deadline) throw error;
      await deps.pause(WAIT_POLL_MS);
      continue;
    }
    site ??= siteOf(snapshot.url);
    if (siteOf(snapshot.url) !== site) {
      throw new JawadError('TARGET_CHANGED', `While waiting, the tab went to another site (${siteOf(snapshot.url) || 'a page that is not a website'}): take a new snapshot to read it.`);
    }
    if (met(snapshot.text)) return { ...snapshot, waited: waited(true) };
    const left = deadline - deps.now();
    if (left <= 0 || deps.signal.aborted) return { ...snapshot, waited: waited(false) };
    await deps.pause(Math.min(left, Math.max(WAIT_POLL_MS, deps.now() - lookStarted)));
  }
}
