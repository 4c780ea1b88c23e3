import { useEffect } from 'preact/hooks';
import { connection, newConversation, view, voiceInput, type View } from '../store';
import { ChatView } from './ChatView';
import { lazyView } from './lazy';

const SettingsView = lazyView(() => import('./SettingsView').then((m) => m.SettingsView));
const HistoryView = lazyView(() => import('./HistoryView').then((m) => m.HistoryView));
const ToolsView = lazyView(() => import('./ToolsView').then((m) => m.ToolsView));
const BridgeView = lazyView(() => import('./BridgePanel').then((m) => m.BridgePanel));
const MemoryView = lazyView(() => import('./MemoryView').then((m) => m.MemoryView));
const ResearchView = lazyView(() => import('./ResearchView').then((m) => m.ResearchView));
const VIEWS = { settings: SettingsView, history: HistoryView, tools: ToolsView, memory: MemoryView, bridge: BridgeView, research: ResearchView, chat: ChatView } as const;

const CONNECTION_TEXT = { connecting: 'Connecting…', connected: '', idle: '', reconnecting: 'Reconnecting to Jawad…' } as const;

function NavButton({ target, label }: { target: View; label: string }) {
  const active = view.value === target;
  return (
    <button type="button" aria-pressed={active} onClick={() => (view.value = active ? 'chat' : target)}>
      {label}
    </button>
  );
}

/** Alt+V anywhere in the sidebar starts or stops voice input; Escape cancels it. */
function useVoiceShortcut(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyV') {
        event.preventDefault();
        voiceInput.toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function App() {
  useVoiceShortcut();
  return (
    <div class="app">
      <header class="top-bar">
        <h1>Jawad</h1>
        <nav aria-label="Jawad">
          <button type="button" onClick={newConversation}>
            New chat
          </button>
          <NavButton target="research" label="Research" />
          <NavButton target="history" label="History" />
          <NavButton target="memory" label="Memory" />
          <NavButton target="tools" label="Tools" />
          <NavButton target="bridge" label="Bridge" />
          <NavButton target="settings" label="Settings" />
        </nav>
      </header>
      <p class="connection" role="status" data-state={connection.value}>
        {CONNECTION_TEXT[connection.value]}
      </p>
      {(() => {
        const View = VIEWS[view.value];
        return <View />;
      })()}
    </div>
  );
}
