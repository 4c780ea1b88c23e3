import type { PageDialog, PageSnapshot } from './messages';
import type { Waited } from './wait';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** How a snapshot's wait went; one that did not come says so plainly, so the model reads the page it got as it stands. */
export function waitNote({ text, gone, met, ms }: Waited): string {
  const and = (parts: string[]) => parts.filter(Boolean).join(' and ');
  if (!text && !gone) return `(waited ${seconds(ms)})`;
  if (met) return `(waited ${seconds(ms)}: the page now ${and([text ? `shows “${text}”` : '', gone ? `no longer shows “${gone}”` : ''])})`;
  return `(waited ${seconds(ms)} for the page to ${and([text ? `show “${text}”` : '', gone ? `stop showing “${gone}”` : ''])}, and it has not: this is the page as it stands)`;
}

/**
 * What a model must know about a snapshot besides its outline (cut short, read while the page was
 * still loading, how a wait went): the lines above the outline, for the built-in agent and for
 * an MCP client alike.
 */
export function snapshotNotes({ partial, unansweredRequests, waited }: Partial<Pick<PageSnapshot, 'partial' | 'unansweredRequests' | 'waited'>>): string[] {
  return [
    partial ? '(partial: the page was too big to walk in time)' : '',
    unansweredRequests ? `(still loading: ${unansweredRequests} request${unansweredRequests === 1 ? '' : 's'} the last action started had no answer yet; the page may still change)` : '',
    waited ? waitNote(waited) : '',
  ].filter(Boolean);
}

/**
 * A page's confirmation box Jawad cancelled during an action: what that means, and the way to
 * accept it when the user asked for exactly this (for the built-in agent and an MCP client alike).
 */
export function dialogNotes(data: unknown): string[] {
  const cancelled = ((data as { dialogs?: PageDialog[] } | null)?.dialogs ?? []).filter((dialog) => dialog.answered === 'cancel');
  if (cancelled.length === 0) return [];
  return [
    `(The page asked “${cancelled[0]!.message}” in a ${cancelled[0]!.kind === 'prompt' ? 'prompt' : 'confirmation'} box of its own, and Jawad answered Cancel, so the page went no further. If the user asked for exactly this, click again with acceptDialog: true; the user is asked first.)`,
  ];
}
