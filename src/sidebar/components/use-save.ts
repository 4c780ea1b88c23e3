import { useState } from 'preact/hooks';
import { saves, type SaveOutcome } from '../store';

/** The outcome of this form's latest save: undefined before the first, or once the user edits again. */
export function useSave(): [SaveOutcome | undefined, (requestId: string | undefined) => void] {
  const [requestId, setRequestId] = useState<string>();
  return [requestId === undefined ? undefined : saves.value.get(requestId), setRequestId];
}

/** Words for a save's outcome; `saved` is said only once the background has stored it. */
export function saveNote(outcome: SaveOutcome | undefined, saved: string): string {
  if (!outcome) return '';
  if (outcome.status === 'saving') return 'Saving…';
  return outcome.status === 'saved' ? saved : outcome.error;
}
