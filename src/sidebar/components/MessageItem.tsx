import type { AgentStep, CostRow, StoredMessage } from '../../protocol';
import { formatCost, formatTokens } from '../history-format';
import { retry } from '../store';
import { ActionLog } from './ActionLog';
import { Markdown } from './Markdown';

const STATUS_TEXT: Partial<Record<StoredMessage['status'], string>> = {
  stopped: 'Stopped.',
  interrupted: 'Interrupted.',
};

function PageChip({ page }: { page: NonNullable<StoredMessage['page']> }) {
  return (
    <a class="page-chip" href={page.url} target="_blank" rel="noopener noreferrer" title={page.url}>
      📄 {page.title || page.url}
    </a>
  );
}

function Usage({ usage }: { usage: NonNullable<StoredMessage['usage']> }) {
  return (
    <span class="usage" title="Tokens used by this reply">
      {usage.inputTokens.toLocaleString()} in · {usage.outputTokens.toLocaleString()} out tokens
    </span>
  );
}

/** Every model call this answer made (one for a reply, several for an agent task), from the usage records. */
function Cost({ row }: { row: CostRow }) {
  return (
    <span class="usage" data-testid="reply-cost" title={`${row.calls} model call${row.calls === 1 ? '' : 's'}`}>
      {formatTokens(row)} tokens · {formatCost(row)}
    </span>
  );
}

export function MessageItem({ message, steps, canRetry, cost, focused }: { message: StoredMessage; steps: AgentStep[]; canRetry: boolean; cost?: CostRow | undefined; focused?: boolean }) {
  const isUser = message.role === 'user';
  return (
    <article
      class={`message ${message.role} ${message.status}${focused ? ' focused' : ''}`}
      data-status={message.status}
      data-message-id={message.id}
      aria-busy={message.status === 'streaming'}
      aria-label={isUser ? 'You said' : 'Jawad answered'}
    >
      {message.page && <PageChip page={message.page} />}
      {isUser ? <p class="user-text">{message.content}</p> : <Markdown text={message.content} />}
      {!isUser && <ActionLog steps={steps} />}
      {message.status === 'streaming' && message.content === '' && steps.length === 0 && <p class="thinking">Thinking…</p>}
      {message.error && message.status !== 'stopped' && (
        <p class="message-error" role="alert">
          {message.error.message}
        </p>
      )}
      {!isUser && (
        <footer class="message-footer">
          {STATUS_TEXT[message.status] && <span class="status-note">{STATUS_TEXT[message.status]}</span>}
          {cost ? <Cost row={cost} /> : message.usage && <Usage usage={message.usage} />}
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
