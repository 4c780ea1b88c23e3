import { connection, newConversation, view, type View } from '../store';
import { ChatView } from './ChatView';
import { HistoryView } from './HistoryView';
import { SettingsView } from './SettingsView';

const CONNECTION_TEXT = { connecting: 'Connecting…', connected: '', idle: '', reconnecting: 'Reconnecting to Jawad…' } as const;

function NavButton({ target, label }: { target: View; label: string }) {
  const active = view.value === target;
  return (
    <button type="button" aria-pressed={active} onClick={() => (view.value = active ? 'chat' : target)}>
      {label}
    </button>
  );
}

export function App() {
  return (
    <div class="app">
      <header class="top-bar">
        <h1>Jawad</h1>
        <nav aria-label="Jawad">
          <button type="button" onClick={newConversation}>
            New chat
          </button>
          <NavButton target="history" label="History" />
          <NavButton target="settings" label="Settings" />
        </nav>
      </header>
      <p class="connection" role="status" data-state={connection.value}>
        {CONNECTION_TEXT[connection.value]}
      </p>
      {view.value === 'settings' ? <SettingsView /> : view.value === 'history' ? <HistoryView /> : <ChatView />}
    </div>
  );
}
