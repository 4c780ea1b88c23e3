import { useState } from 'preact/hooks';
import { clearHistory, deleteConversation, openConversation, state } from '../store';

export function HistoryView() {
  const [confirmClear, setConfirmClear] = useState(false);
  const { conversations, conversation: open } = state.value;
  return (
    <section class="history" aria-label="Conversations">
      <h2>Conversations</h2>
      {conversations.length === 0 && <p class="muted">No conversations yet.</p>}
      <ul>
        {conversations.map((c) => (
          <li key={c.id} class={c.id === open?.id ? 'current' : ''}>
            <button type="button" class="conversation-title" onClick={() => openConversation(c.id)}>
              {c.title}
              <time dateTime={new Date(c.updatedAt).toISOString()}>{new Date(c.updatedAt).toLocaleString()}</time>
            </button>
            <button type="button" class="link-button" aria-label={`Delete “${c.title}”`} onClick={() => deleteConversation(c.id)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {conversations.length > 0 && (
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (confirmClear) clearHistory();
            setConfirmClear(!confirmClear);
          }}
        >
          {confirmClear ? 'Click again to delete every conversation' : 'Clear history'}
        </button>
      )}
    </section>
  );
}
