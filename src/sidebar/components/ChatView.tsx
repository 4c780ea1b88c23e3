import { useEffect, useRef } from 'preact/hooks';
import { loadEarlier, openConversation, state, view } from '../store';
import type { AgentStep } from '../../protocol';
import { Composer } from './Composer';
import { MessageItem } from './MessageItem';
import { BudgetPrompt } from './BudgetPrompt';
import { ErrorBanner } from './ErrorBanner';
import { PermissionPrompt } from './PermissionPrompt';
import { lazyView } from './lazy';

/** Opened from an answer's Trace button: its code loads then, not with the chat. */
const TraceView = lazyView(() => import('./TraceView').then((m) => m.TraceView));

const NO_STEPS: AgentStep[] = [];

/** Each answer's steps, in the order they ran (state keeps them sorted by index). */
function stepsByMessage(steps: AgentStep[]): Map<string, AgentStep[]> {
  const grouped = new Map<string, AgentStep[]>();
  for (const step of steps) grouped.set(step.messageId, [...(grouped.get(step.messageId) ?? []), step]);
  return grouped;
}

function EmptyState() {
  const needsSetup = state.value.settings === null;
  return (
    <div class="empty">
      <h2>Ask Jawad about the page you’re on</h2>
      {needsSetup ? (
        <p>
          First, pick a model provider.{' '}
          <button type="button" class="link-button" onClick={() => (view.value = 'settings')}>
            Open Settings
          </button>
        </p>
      ) : (
        <p>Summarize the page, or tick “Include this page” and ask a question about it.</p>
      )}
    </div>
  );
}

/** Another conversation's task is paused on a permission prompt: say so, and offer to go there. */
function WaitingElsewhere() {
  const { waitingElsewhere, conversations } = state.value;
  const first = waitingElsewhere[0];
  if (!first) return null;
  const title = conversations.find((c) => c.id === first.conversationId)?.title ?? 'another conversation';
  return (
    <div class="banner waiting" role="status" data-testid="waiting-elsewhere">
      <span>A task in “{title}” is waiting for your permission.</span>
      <button type="button" class="link-button" onClick={() => openConversation(first.conversationId)}>
        Open it
      </button>
    </div>
  );
}

/** A search hit opened an older message: bring it into view once it is on screen. */
function useFocus(list: { current: HTMLDivElement | null }, focus: string | undefined): void {
  useEffect(() => {
    if (!focus) return;
    list.current?.querySelector(`[data-message-id="${CSS.escape(focus)}"]`)?.scrollIntoView({ block: 'center' });
  }, [focus]);
}

export function ChatView() {
  const { messages, steps, earlier, focus, costs } = state.value;
  const list = useRef<HTMLDivElement>(null);
  const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant');
  const lastLength = messages.at(-1)?.content.length ?? 0;
  const lastStep = steps.at(-1);
  const grouped = stepsByMessage(steps);
  useEffect(() => {
    const element = list.current;
    if (element && !focus) element.scrollTop = element.scrollHeight;
  }, [messages.length, lastLength, steps.length, lastStep?.status]);
  useFocus(list, focus);
  return (
    <section class="chat" aria-label="Conversation">
      <div class="messages" ref={list} role="log" aria-live="polite">
        {earlier > 0 && (
          <button type="button" class="link-button earlier" onClick={loadEarlier}>
            Show earlier messages ({earlier})
          </button>
        )}
        {messages.length === 0 ? (
          <EmptyState />
        ) : (
          messages.map((m) => (
            <MessageItem key={m.id} message={m} steps={grouped.get(m.id) ?? NO_STEPS} canRetry={m === lastAssistant} cost={costs?.byMessage[m.id]} focused={m.id === focus} />
          ))
        )}
      </div>
      <ErrorBanner />
      {state.value.trace && <TraceView />}
      <BudgetPrompt />
      <WaitingElsewhere />
      <PermissionPrompt />
      <Composer />
    </section>
  );
}
