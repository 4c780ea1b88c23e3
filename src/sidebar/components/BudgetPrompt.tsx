import { answerBudget, state } from '../store';

const money = (value: number) => `$${value.toFixed(value >= 1 ? 2 : 4)}`;

/** Work paused before a model call that would go over a budget: go on, or stop. */
export function BudgetPrompt() {
  const { budgetPrompts, conversation } = state.value;
  const prompt = budgetPrompts.find((p) => p.conversationId === conversation?.id);
  if (!prompt) return null;
  const what = prompt.scope === 'task' ? 'This task' : 'Today’s work';
  return (
    <div class="banner budget" role="alertdialog" aria-label="Budget reached" data-testid="budget-prompt" data-scope={prompt.scope}>
      <span>
        {what} has spent {money(prompt.spent)} of its {money(prompt.limit)} budget; the next model call would go over. Paused.
      </span>
      <button type="button" onClick={() => answerBudget(prompt.id, 'continue')}>
        Continue
      </button>
      <button type="button" class="link-button" onClick={() => answerBudget(prompt.id, 'stop')}>
        Stop
      </button>
    </div>
  );
}
