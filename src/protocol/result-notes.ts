import { clipText } from './caps';
import type { PageDialog } from './dialogs';
import type { PageSnapshot } from './messages';
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
 * still loading, how a wait went, boxes the page showed since the last step): the lines above the
 * outline, for the built-in agent and for an MCP client alike.
 */
export function snapshotNotes({ partial, unansweredRequests, waited, lateDialogs }: Partial<Pick<PageSnapshot, 'partial' | 'unansweredRequests' | 'waited' | 'lateDialogs'>>): string[] {
  return [
    partial ? '(partial: the page was too big to walk in time)' : '',
    unansweredRequests ? `(still loading: ${unansweredRequests} request${unansweredRequests === 1 ? '' : 's'} the last action started had no answer yet; the page may still change)` : '',
    waited ? waitNote(waited) : '',
    ...dialogNotes({ lateDialogs }),
  ].filter(Boolean);
}

const ANSWER_WORDS: Record<PageDialog['answered'], string> = { ok: 'OK', accept: 'OK', cancel: 'Cancel' };
const KIND_WORDS: Record<PageDialog['kind'], string> = { alert: 'message', confirm: 'confirmation', prompt: 'prompt' };

/**
 * The page's own boxes Jawad answered, for the built-in agent and an MCP client alike: those shown
 * after the previous step had returned, which the model has not heard of, and a confirmation box Jawad
 * cancelled — what that means, and the way to accept it when the user asked for exactly this.
 */
export function dialogNotes(data: unknown): string[] {
  const { dialogs, lateDialogs } = dialogsIn(data);
  const cancelled = [...dialogs, ...lateDialogs].find((dialog) => dialog.answered === 'cancel');
  return [
    lateDialogs.length > 0 ? `(After the previous step, the page showed: ${describeDialogs(lateDialogs)}.)` : '',
    cancelled ? cancelledNote(cancelled) : '',
  ].filter(Boolean);
}

/** What the model is told of a confirmation or prompt box Jawad cancelled, and how it could be accepted. */
function cancelledNote({ message, kind, openedByTool }: PageDialog): string {
  const box = kind === 'prompt' ? 'prompt' : 'confirmation';
  const accept = openedByTool
    ? 'No step can accept a box a page shows as it opens from an address; if the user wants it accepted, ask them to open the page themselves.'
    : `If the user asked for exactly this, click again with acceptDialog: true${kind === 'prompt' ? ' and dialogText: the answer' : ''}; the user is asked first.`;
  return `(The page asked “${message}” in a ${box} box of its own, and Jawad answered Cancel, so the page went no further. ${accept})`;
}

/** A step's boxes (an action's or a snapshot's data): those of the step itself, and those since the previous step returned. */
export function dialogsIn(data: unknown): { dialogs: PageDialog[]; lateDialogs: PageDialog[] } {
  const { dialogs = [], lateDialogs = [] } = (data ?? {}) as { dialogs?: PageDialog[]; lateDialogs?: PageDialog[] };
  return { dialogs, lateDialogs };
}

/** The page's boxes as a person would tell them: `message box “Autosaved.” (Jawad answered OK); …`, each message clipped to `maxChars`. */
export function describeDialogs(dialogs: PageDialog[], maxChars = Infinity): string {
  return dialogs.map((dialog) => `${KIND_WORDS[dialog.kind]} box “${clipText(dialog.message, maxChars)}” (Jawad answered ${ANSWER_WORDS[dialog.answered]})`).join('; ');
}
