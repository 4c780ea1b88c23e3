/**
 * A settings form says "saved" only once the background has stored the settings and sent them
 * back: until then the sidebar still uses the old ones (a mic pressed at once would record in the
 * old mode). The sidebar's store runs here against a fake Port, as the background would answer it.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VOICE_SETTINGS, type VoiceSettings } from '../../src/protocol';

class FakePort {
  readonly name = 'sidebar';
  readonly posted: Array<{ type: string; requestId: string }> = [];
  private readonly messageListeners: Array<(message: unknown) => void> = [];
  private readonly disconnectListeners: Array<() => void> = [];
  onMessage = { addListener: (listener: (message: unknown) => void) => this.messageListeners.push(listener) };
  onDisconnect = { addListener: (listener: () => void) => this.disconnectListeners.push(listener) };
  postMessage(message: { type: string; requestId: string }): void {
    this.posted.push(message);
  }
  disconnect(): void {}
  answer(event: unknown): void {
    for (const listener of this.messageListeners) listener(event);
  }
  drop(): void {
    for (const listener of this.disconnectListeners) listener();
  }
}

const ports: FakePort[] = [];
vi.mock('webextension-polyfill', () => ({
  default: {
    runtime: {
      connect: () => {
        const port = new FakePort();
        ports.push(port);
        return port;
      },
    },
  },
}));

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

type Store = typeof import('../../src/sidebar/store');
let store: Store;

beforeAll(async () => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
  vi.stubGlobal('navigator', {});
  store = await import('../../src/sidebar/store');
  store.startSidebar();
});

const port = () => ports.at(-1)!;
const speech: VoiceSettings = { ...DEFAULT_VOICE_SETTINGS, mode: 'speech' };

describe('settings saves in the sidebar', () => {
  beforeEach(() => {
    // The background has sent the settings it holds: Whisper.
    port().answer({ type: 'VOICE_SETTINGS', requestId: 'user-0a0a0a0a', payload: { ...DEFAULT_VOICE_SETTINGS, mode: 'whisper', hasWhisperKey: false } });
  });

  it('is saving, in the old mode, until the background sends back what it stored', () => {
    const requestId = store.saveVoiceSettings(speech);
    expect(port().posted.at(-1)).toMatchObject({ type: 'SAVE_VOICE_SETTINGS', requestId });
    expect(store.saves.value.get(requestId)).toEqual({ status: 'saving' });
    expect(store.state.value.voiceSettings?.mode).toBe('whisper');

    port().answer({ type: 'VOICE_SETTINGS', requestId, payload: { ...speech, hasWhisperKey: false } });
    expect(store.saves.value.get(requestId)).toEqual({ status: 'saved' });
    expect(store.state.value.voiceSettings?.mode).toBe('speech');
  });

  it('is not saved by settings another request brought', () => {
    const requestId = store.saveVoiceSettings(speech);
    port().answer({ type: 'VOICE_SETTINGS', requestId: 'user-1b1b1b1b', payload: { ...DEFAULT_VOICE_SETTINGS, hasWhisperKey: false } });
    expect(store.saves.value.get(requestId)).toEqual({ status: 'saving' });
  });

  it("says the background's refusal in its words", () => {
    const requestId = store.saveSettings({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', timeoutSeconds: 60 });
    port().answer({ type: 'ERROR', requestId, payload: { code: 'EXECUTION_ERROR', message: 'Storage is full.' } });
    expect(store.saves.value.get(requestId)).toEqual({ status: 'failed', error: 'Storage is full.' });
  });

  it('fails a save the background stopped under, and keeps a settled one settled', () => {
    const settled = store.saveVoiceSettings(speech);
    port().answer({ type: 'VOICE_SETTINGS', requestId: settled, payload: { ...speech, hasWhisperKey: false } });
    const lost = store.saveVoiceSettings(speech);
    port().drop();
    expect(store.saves.value.get(lost)).toMatchObject({ status: 'failed', error: expect.stringContaining('save again') });
    expect(store.saves.value.get(settled)).toEqual({ status: 'saved' });
  });
});
