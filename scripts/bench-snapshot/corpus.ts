/**
 * The real-site corpus (test/fixtures/real-sites, see its SOURCES.md): which pages, how much of
 * each page's visible text a snapshot keeps, and the corpus table with geometric means.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_DIR = join(import.meta.dirname, '../../test/fixtures/real-sites');

/** Targets of the corpus (issue 10): per page never slower; over the corpus these means and share. */
export const CORPUS_TARGETS = { pageTime: 1, time: 0.3, tokens: 0.35, kept: 0.9 };
/** Pages showing fewer visible words than this render nothing without their scripts: left out of ratios. */
export const MIN_VISIBLE_WORDS = 50;

/** The corpus pages as served paths (/real-sites/NAME.html; the server unpacks NAME.html.gz). */
export function corpusPaths(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.html.gz'))
    .sort()
    .map((file) => `/real-sites/${file.slice(0, -'.gz'.length)}`);
}

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
/** A word: a run of letters or digits; in scripts written without spaces, each character. */
const WORD = new RegExp(`[${CJK}]|[^\\s\\p{P}\\p{S}${CJK}]+`, 'gu');

export function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

export function wordCount(counts: Map<string, number>): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

/** The share of the page's visible words (each occurrence counted) found in the snapshot. */
export function keptShare(visible: Map<string, number>, snapshot: string): number {
  const total = wordCount(visible);
  if (total === 0) return 1;
  const seen = words(snapshot);
  let kept = 0;
  for (const [word, count] of visible) kept += Math.min(count, seen.get(word) ?? 0);
  return kept / total;
}

export function geomean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
}

export interface CorpusRow {
  page: string;
  visibleWords: number;
  ours?: { ms: number; tokens: number; kept: number };
  anchor?: { ms: number; tokens: number; kept: number };
  error?: string;
}

const pad = (text: string, width: number) => (text.length >= width ? text.slice(0, width) : text + ' '.repeat(width - text.length));
const num = (value: number, digits = 0) => value.toFixed(digits).padStart(7);
const pct = (share: number) => `${(share * 100).toFixed(0)}%`.padStart(5);

/** One line per page and the geometric means, with the targets and PASS/FAIL. */
export function renderCorpus(rows: readonly CorpusRow[]): string {
  const out = [`${pad('page', 44)}  words  Jawad ms  PW ms   time×  Jawad tok  PW tok  tok×  kept  PW kept`];
  const counted: Array<Required<Pick<CorpusRow, 'ours' | 'anchor'>>> = [];
  let slower = 0;
  for (const row of rows) {
    const { ours, anchor } = row;
    if (!ours || !anchor) {
      out.push(`${pad(row.page, 44)}  not measured: ${row.error ?? 'unknown'}`);
      continue;
    }
    const skipped = row.visibleWords < MIN_VISIBLE_WORDS;
    if (!skipped) counted.push({ ours, anchor });
    const time = ours.ms / anchor.ms;
    if (!skipped && time > CORPUS_TARGETS.pageTime) slower++;
    out.push(
      `${pad(row.page, 44)} ${num(row.visibleWords)} ${num(ours.ms, 1)}  ${num(anchor.ms, 1)} ${num(time, 2)} ${num(ours.tokens)}    ${num(anchor.tokens)} ${num(ours.tokens / anchor.tokens, 2)} ${pct(ours.kept)}  ${pct(anchor.kept)}${skipped ? '  (renders nothing without scripts: not counted)' : time > CORPUS_TARGETS.pageTime ? '  SLOWER' : ''}`,
    );
  }
  const time = geomean(counted.map(({ ours, anchor }) => ours.ms / anchor.ms));
  const tokens = geomean(counted.map(({ ours, anchor }) => ours.tokens / anchor.tokens));
  const kept = geomean(counted.map(({ ours }) => ours.kept));
  const anchorKept = geomean(counted.map(({ anchor }) => anchor.kept));
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  out.push(
    '',
    `${counted.length} pages counted of ${rows.length}.`,
    `geometric mean time ratio   ${time.toFixed(3)}×  (target ≤ ${CORPUS_TARGETS.time}×)  ${verdict(time <= CORPUS_TARGETS.time)}`,
    `geometric mean token ratio  ${tokens.toFixed(3)}×  (target ≤ ${CORPUS_TARGETS.tokens}×)  ${verdict(tokens <= CORPUS_TARGETS.tokens)}`,
    `visible words kept, geomean ${(kept * 100).toFixed(1)}%  (target ≥ ${CORPUS_TARGETS.kept * 100}%; Playwright ${(anchorKept * 100).toFixed(1)}%)  ${verdict(kept >= CORPUS_TARGETS.kept)}`,
    `pages slower than Playwright: ${slower}  (target 0)  ${verdict(slower === 0)}`,
  );
  return out.join('\n');
}
