/**
 * Evidence and citations, pure. A step's worker answers with facts, each followed by the exact
 * words of the page that support it; a fact counts as evidence only when those words are really
 * on a page the step read (a model's paraphrase or invention is not). The report cites each claim
 * with the number of its evidence, and marks a claim that has none.
 */
import type { Evidence, WorkflowStep } from '../../protocol';

/** What the step's worker is told about the shape of its answer. */
export const FACTS_FORMAT = [
  'When you are done, answer with one line per fact, in this form:',
  '- the fact | "the exact words on the page that show it"',
  'Copy the quoted words exactly from the page (a short phrase is best). If the page does not have what the task needs, answer: FAILED: why.',
].join('\n');

export interface Claim {
  claim: string;
  quote?: string;
}

/** A page a step read: what a quote is checked against. */
export interface PageRead {
  url: string;
  title: string;
  text: string;
  at: number;
  tabId: number;
}

/** Why the step could not do its task, when its worker said so. */
export function failureIn(answer: string): string | undefined {
  const match = /^\s*FAILED:\s*(.+)$/im.exec(answer);
  return match ? match[1]!.trim() : undefined;
}

const CLAIM_LINE = /^\s*(?:[-*•]|\d+[.)])\s+(.+?)\s*$/;
const QUOTED = /^(.*?)\s*[|—–]\s*["“”'‘](.+?)["“”'’]\s*$/;

export function parseClaims(answer: string): Claim[] {
  const claims: Claim[] = [];
  for (const line of answer.split('\n')) {
    const item = CLAIM_LINE.exec(line)?.[1];
    if (!item) continue;
    const quoted = QUOTED.exec(item);
    if (quoted && quoted[1]!.trim()) claims.push({ claim: quoted[1]!.trim(), quote: quoted[2]!.trim() });
    else claims.push({ claim: item });
  }
  return claims;
}

/** Case, spacing, quotes and dashes differ between a page's markdown and a model's copy; words do not. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[*_`#>]/g, '')
    .replace(/[“”„]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface Checked {
  evidence: Evidence[];
  /** Claims whose quote is on no page the step read (or that gave none). */
  unsupported: string[];
}

/** Numbers each supported claim after the `already` pieces of evidence collected before. */
export function checkClaims(claims: Claim[], pages: readonly PageRead[], step: Pick<WorkflowStep, 'id'>, already: number): Checked {
  const evidence: Evidence[] = [];
  const unsupported: string[] = [];
  const normalisedPages = pages.map((page) => ({ page, text: normalise(page.text) }));
  for (const { claim, quote } of claims) {
    const wanted = quote ? normalise(quote) : '';
    const source = wanted ? normalisedPages.find(({ text }) => text.includes(wanted))?.page : undefined;
    if (!source || !quote) {
      unsupported.push(claim);
      continue;
    }
    evidence.push({ n: already + evidence.length + 1, stepId: step.id, claim, quote, url: source.url, title: source.title || source.url, at: source.at, tabId: source.tabId });
  }
  return { evidence, unsupported };
}

/**
 * The evidence in the order of the plan's steps, numbered again from 1. Steps running side by side,
 * or again after a restart, finish in any order: numbering by the plan makes the report the same
 * whatever order they finished in.
 */
export function inPlanOrder(evidence: readonly Evidence[], steps: readonly Pick<WorkflowStep, 'id'>[]): Evidence[] {
  const position = new Map(steps.map((step, index) => [step.id, index]));
  const place = (item: Evidence) => position.get(item.stepId) ?? steps.length;
  return evidence
    .map((item, index) => ({ item, index }))
    .sort((a, b) => place(a.item) - place(b.item) || a.index - b.index)
    .map(({ item }, index) => ({ ...item, n: index + 1 }));
}

export const NO_EVIDENCE = '*(no evidence)*';

/**
 * Marks every claim line of the model's summary that cites no known source, and drops citation
 * numbers that point nowhere. Headings and blank lines are not claims.
 */
export function markUncited(summary: string, sources: number): string {
  return summary
    .split('\n')
    .map((line) => {
      if (!line.trim() || /^\s*#/.test(line) || /^\s*\|?\s*:?-{3,}/.test(line)) return line;
      let cited = false;
      const kept = line.replace(/\[(\d+)\]/g, (whole, digits: string) => {
        const n = Number(digits);
        if (n >= 1 && n <= sources) {
          cited = true;
          return whole;
        }
        return '';
      });
      return cited ? kept : `${kept.trimEnd()} ${NO_EVIDENCE}`;
    })
    .join('\n');
}

/** Link text and titles from pages may hold markdown: shown as text, never as markup. */
function plain(text: string): string {
  return text.replace(/[[\]()*_`<>#|\\]/g, ' ').replace(/\s+/g, ' ').trim();
}

function sourceLine(item: Evidence): string {
  const when = new Date(item.at).toISOString().replace('T', ' ').slice(0, 16);
  return `${item.n}. [${plain(item.title) || item.url}](${encodeURI(decodeURI(item.url))}) — “${plain(item.quote)}” (tab ${item.tabId}, ${when} UTC)`;
}

export interface ReportParts {
  intent: string;
  summary: string;
  evidence: readonly Evidence[];
  unsupported: readonly string[];
}

/** The final report: the summary with its claims checked, then the numbered sources. */
export function renderReport({ intent, summary, evidence, unsupported }: ReportParts): string {
  const parts = [`# ${plain(intent)}`, '', markUncited(summary.trim(), evidence.length)];
  if (unsupported.length) {
    parts.push('', '## Not backed by a quote', '', ...unsupported.map((claim) => `- ${plain(claim)} ${NO_EVIDENCE}`));
  }
  parts.push('', '## Sources', '', ...(evidence.length ? evidence.map(sourceLine) : ['No source was collected.']));
  return parts.join('\n');
}

/** What the report writer is given: the numbered evidence, as data. */
export function evidenceList(evidence: readonly Evidence[]): string {
  return evidence.map((item) => `[${item.n}] ${item.claim} (“${item.quote}”, ${item.title})`).join('\n');
}

export const REPORT_SYSTEM_PROMPT = [
  'You write the final report of a research task from numbered evidence.',
  'Answer the request in Markdown: a short answer, then one bullet per finding. End every sentence or bullet with the numbers of the evidence that supports it, like [1] or [2][3].',
  'Use only the evidence given. Do not add a list of sources: Jawad adds it.',
].join('\n');
