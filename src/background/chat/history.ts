import type { MessageRow } from '../../db/database';
import type { LlmMessage } from '../llm/types';
import { SYSTEM_PROMPT } from '../prompts';

/** Keeps the prompt within a budget by dropping the oldest turns first (the newest always stays). */
const HISTORY_CHAR_BUDGET = 120_000;

function userTurn(row: MessageRow): string {
  return [row.memoryContext, row.pageContext, row.prompt ?? row.content].filter(Boolean).join('\n\n');
}

/** The conversation as the model sees it: system prompt, then every turn that has content. */
export function toLlmMessages(rows: MessageRow[]): LlmMessage[] {
  const turns: LlmMessage[] = rows
    .filter((row) => row.role === 'user' || row.content.trim() !== '')
    .map((row) => (row.role === 'user' ? { role: 'user', content: userTurn(row) } : { role: 'assistant', content: row.content }));
  let total = turns.reduce((sum, turn) => sum + turn.content.length, 0);
  while (turns.length > 1 && total > HISTORY_CHAR_BUDGET) total -= turns.shift()!.content.length;
  // Some providers (Anthropic) require the first turn to be the user's.
  while (turns.length > 1 && turns[0]!.role === 'assistant') turns.shift();
  return [{ role: 'system', content: SYSTEM_PROMPT }, ...turns];
}
