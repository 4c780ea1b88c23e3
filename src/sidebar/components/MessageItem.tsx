import type { AgentStep, StoredMessage } from '../../protocol';
import { retry } from '../store';
import { ActionLog } from './ActionLog';
import { Icon } from './Icon';
import { Markdown } from './Markdown';

const STATUS_TEXT: Partial<Record<StoredMessage['status'], string>> = {
  stopped: 'Stopped.',
  interrupted: 'Interrupted.',
};

function PageChip({ page }: { page: NonNullable<StoredMessage['page']> }) {
  return (
    <a class="page-chip" href={page.url} target="_blank" rel="noopener noreferrer" title={page.url}>
      <Icon name="page" /> {page.title || page.url}
    </a>
  );
}

/** The model's thinking, collapsed; it grows live while the model thinks. */
function Thinking({ text, live }: { text: string; live: boolean }) {
  return (
    <details class="thinking-section" data-live={live ? 'true' : undefined}>
      <summary>
        <Icon name="thinking" /> {live ? 'Thinking…' : 'Thinking'}
      </summary>
      <p class="reasoning-text">{text}</p>
    </details>
  );
}

function Usage({ usage }: { usage: NonNullable<StoredMessage['usage']> }) {
  return (
    <span class="usage" title="Tokens used by this reply">
      {usage.inputTokens.toLocaleString()} in · {usage.outputTokens.toLocaleString()} out tokens
      {usage.cachedInputTokens ? ` · ${usage.cachedInputTokens.toLocaleString()} cached` : ''}
      {usage.reasoningTokens ? ` · ${usage.reasoningTokens.toLocaleString()} thinking` : ''}
    </span>
  );
}

export function MessageItem({ message, steps, canRetry }: { message: StoredMessage; steps: AgentStep[]; canRetry: boolean }) {
  const isUser = message.role === 'user';
  return (
    <article
      class={`message ${message.role} ${message.status}`}
      data-status={message.status}
      data-message-id={message.id}
      aria-busy={message.status === 'streaming'}
      aria-label={isUser ? 'You said' : 'Jawad answered'}
    >
      {message.page && <PageChip page={message.page} />}
      {message.reasoning && <Thinking text={message.reasoning} live={message.status === 'streaming' && message.content === ''} />}
      {isUser ? <p class="user-text">{message.content}</p> : <Markdown text={message.content} />}
      {!isUser && <ActionLog steps={steps} />}
      {message.status === 'streaming' && message.content === '' && !message.reasoning && steps.length === 0 && <p class="thinking">Thinking…</p>}
      {message.error && message.status !== 'stopped' && (
        <p class="message-error" role="alert">
          {message.error.message}
        </p>
      )}
      {!isUser && (
        <footer class="message-footer">
          {STATUS_TEXT[message.status] && <span class="status-note">{STATUS_TEXT[message.status]}</span>}
          {message.usage && <Usage usage={message.usage} />}
          {canRetry && message.status !== 'streaming' && (
            <button type="button" class="link-button" onClick={() => retry(message.id)}>
              Retry
            </button>
          )}
        </footer>
      )}
    </article>
  );
}
