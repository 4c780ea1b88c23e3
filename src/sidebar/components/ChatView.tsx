import { useEffect, useRef } from 'preact/hooks';
import { dismissBanner, state, view } from '../store';
import { Composer } from './Composer';
import { MessageItem } from './MessageItem';

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

export function ChatView() {
  const { messages, banner } = state.value;
  const list = useRef<HTMLDivElement>(null);
  const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant');
  const lastLength = messages.at(-1)?.content.length ?? 0;
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages.length, lastLength]);
  return (
    <section class="chat" aria-label="Conversation">
      <div class="messages" ref={list} role="log" aria-live="polite">
        {messages.length === 0 ? <EmptyState /> : messages.map((m) => <MessageItem key={m.id} message={m} canRetry={m === lastAssistant} />)}
      </div>
      {banner && (
        <div class="banner" role="alert" data-code={banner.code}>
          <span>{banner.message}</span>
          <button type="button" class="link-button" onClick={dismissBanner} aria-label="Dismiss error">
            ✕
          </button>
        </div>
      )}
      <Composer />
    </section>
  );
}
