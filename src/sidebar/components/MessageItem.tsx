import type { AgentStep, CostRow, StoredMessage, UsedContext } from '../../protocol';
import { formatCost, formatTokens } from '../history-format';
import { forgetMemory, forgotten, openConversation, openTrace, retry } from '../store';
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
      {page.selection ? <span class="page-chip-selection"> · “{page.selection}”</span> : null}
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
      <p class="reasoning-text" dir="auto">{text}</p>
    </details>
  );
}

/** Before the usage records arrive (or without any): the tokens the stream reported, in the cost meter's words. */
function Usage({ usage }: { usage: NonNullable<StoredMessage['usage']> }) {
  return (
    <span class="usage" title="Tokens used by this reply">
      {formatTokens(usage)} tokens
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

function origin(item: UsedContext): string {
  const day = new Date(item.createdAt).toLocaleDateString();
  if (item.kind === 'message') return `Earlier conversation “${item.title ?? ''}”, ${day}`;
  if (item.source === 'page') return `Read on ${item.site ?? 'a web page'}, ${day}`;
  return `Saved memory, ${day}`;
}

/** What memory gave the model for this answer, each with where it came from; the user can forget any of it. */
export function UsedContextList({ items }: { items: UsedContext[] }) {
  return (
    <details class="used-context" data-testid="used-context">
      <summary>Used context ({items.length})</summary>
      <ul>
        {items.map((item) => (
          <li key={`${item.kind}:${item.id}`} data-kind={item.kind} data-source={item.source}>
            <span class="provenance">{origin(item)}</span>
            <span class="context-text" dir="auto">{item.text}</span>
            <span class="row-actions">
              {item.conversationId && (
                <button type="button" class="link-button" onClick={() => openConversation(item.conversationId!, item.id)}>
                  Open
                </button>
              )}
              {forgotten.value.has(item.id) ? (
                <span class="forgotten">Forgotten</span>
              ) : (
                <button type="button" class="link-button" onClick={() => forgetMemory(item.kind, item.id)}>
                  Forget
                </button>
              )}
            </span>
          </li>
        ))}
      </ul>
    </details>
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
      {message.reasoning && <Thinking text={message.reasoning} live={message.status === 'streaming' && message.content === ''} />}
      {isUser ? <p class="user-text" dir="auto">{message.content}</p> : <Markdown text={message.content} />}
      {!isUser && message.context && message.context.length > 0 && <UsedContextList items={message.context} />}
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
          {cost ? <Cost row={cost} /> : message.usage && <Usage usage={message.usage} />}
          {message.status !== 'streaming' && (
            <button type="button" class="link-button" aria-label="Trace this answer" onClick={() => openTrace({ messageId: message.id })}>
              Trace
            </button>
          )}
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
