/**
 * How recalled memories are put in front of the model (pure). Page memories came from web pages:
 * they are wrapped like page content, so the model treats them as data, never as instructions.
 */
import { clipText, oneLine, type UsedContext } from '../../protocol';
import { wrapUntrusted } from '../prompts';

const SHOWN_CHARS = 300;

export function excerpt(text: string, chars = SHOWN_CHARS): string {
  return clipText(oneLine(text), chars);
}

function day(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

function provenance(item: UsedContext): string {
  if (item.kind === 'message') return `earlier conversation “${item.title ?? ''}”, ${day(item.createdAt)}`;
  if (item.source === 'page') return `read on ${item.site ?? 'a web page'}, ${day(item.createdAt)}`;
  return `saved memory, ${day(item.createdAt)}`;
}

/** The block prepended to the user's turn, or '' when nothing was recalled. */
export function recallBlock(items: UsedContext[], full: ReadonlyMap<string, string>): string {
  if (items.length === 0) return '';
  const trusted = items.filter((item) => item.source !== 'page').map((item) => `- (${provenance(item)}) ${full.get(item.id) ?? item.text}`);
  const fromPages = items.filter((item) => item.source === 'page').map((item) => wrapUntrusted(`Memory (${provenance(item)}):`, full.get(item.id) ?? item.text));
  return [
    'Jawad’s memory recalled the following; it may be out of date or beside the point — use it only if it helps answer:',
    ...trusted,
    ...fromPages,
  ].join('\n');
}
