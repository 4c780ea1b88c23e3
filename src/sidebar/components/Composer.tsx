import { attachPage, connection, draft, sendChat, stopGeneration, streaming, summarizePage } from '../store';

export function Composer() {
  const busy = streaming.value;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      sendChat();
    }
    if (event.key === 'Escape' && busy) stopGeneration();
  };
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        if (busy) stopGeneration();
        else sendChat();
      }}
    >
      <label class="visually-hidden" for="composer-input">
        Message Jawad
      </label>
      <textarea
        id="composer-input"
        rows={3}
        placeholder={connection.value === 'connected' ? 'Ask about this page… (Enter to send, Shift+Enter for a new line)' : 'Reconnecting… you can keep typing'}
        value={draft.value}
        onInput={(event) => (draft.value = (event.target as HTMLTextAreaElement).value)}
        onKeyDown={onKeyDown}
      />
      <div class="composer-actions">
        <label class="attach">
          <input type="checkbox" checked={attachPage.value} onChange={(event) => (attachPage.value = (event.target as HTMLInputElement).checked)} />
          Include this page
        </label>
        <button type="button" class="secondary" onClick={summarizePage} disabled={busy}>
          Summarize page
        </button>
        {busy ? (
          <button type="submit" class="stop" aria-label="Stop generating">
            Stop
          </button>
        ) : (
          <button type="submit" class="primary" disabled={draft.value.trim() === ''}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
