import { agentMode, attachPage, connection, draft, sendChat, stopGeneration, streaming, summarizePage, voiceInput } from '../store';
import { voice } from '../voice/controller';
import { VoiceBar } from './VoiceBar';
import { Icon } from './Icon';

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
      <VoiceBar />
      <label class="visually-hidden" for="composer-input">
        Message Jawad
      </label>
      <textarea
        id="composer-input"
        dir="auto"
        rows={3}
        placeholder={connection.value === 'connected' ? 'Ask about this page… (Enter to send, Shift+Enter for a new line)' : 'Reconnecting… you can keep typing'}
        value={draft.value}
        onInput={(event) => (draft.value = (event.target as HTMLTextAreaElement).value)}
        onKeyDown={onKeyDown}
      />
      <div class="composer-actions">
        <div class="composer-options">
          <label class="attach">
            <input type="checkbox" checked={attachPage.value} onChange={(event) => (attachPage.value = (event.target as HTMLInputElement).checked)} />
            Include this page
          </label>
          <label class="attach agent-switch" title="Let Jawad click, type and navigate on the page. It asks before anything that matters.">
            <input
              type="checkbox"
              role="switch"
              data-testid="agent-toggle"
              checked={agentMode.value}
              onChange={(event) => (agentMode.value = (event.target as HTMLInputElement).checked)}
            />
            Act on page
          </label>
        </div>
        <button
          type="button"
          class="mic"
          aria-label={voice.value.phase === 'recording' ? 'Stop voice input (Alt+V)' : 'Voice input (Alt+V)'}
          aria-pressed={voice.value.phase === 'recording'}
          title="Voice input (Alt+V)"
          disabled={voice.value.phase === 'starting' || voice.value.phase === 'transcribing'}
          onClick={() => voiceInput.toggle()}
        >
          <Icon name="mic" />
        </button>
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
