import {
  DEFAULT_VOICE_SETTINGS,
  keyHint,
  ResearchSettings,
  type ProviderSettings,
  type PublicSettings,
  type PublicVoiceSettings,
  type SettingsUpdate,
  type VoiceSettings,
} from '../protocol';
import type { RequestShape } from '../background/llm/request-shape';
import type { JawadDatabase } from './database';
import { Kept } from './kept';

export class SettingsStore {
  constructor(private readonly db: JawadDatabase) {}

  async load(): Promise<ProviderSettings | undefined> {
    const row = await this.db.settings.get('provider');
    return row?.key === 'provider' ? row.value : undefined;
  }

  async loadResearch(): Promise<ResearchSettings> {
    const row = await this.db.settings.get('research');
    return row?.key === 'research' ? row.value : ResearchSettings.parse({});
  }

  async saveResearch(update: ResearchSettings): Promise<ResearchSettings> {
    await this.db.settings.put({ key: 'research', value: update });
    return update;
  }

  async loadVoice(): Promise<VoiceSettings> {
    const row = await this.db.settings.get('voice');
    return row?.key === 'voice' ? row.value : DEFAULT_VOICE_SETTINGS;
  }

  /** Like save(): an omitted key is kept only while the transcription URL keeps its origin. */
  async saveVoice(update: VoiceSettings): Promise<VoiceSettings> {
    const current = await this.loadVoice();
    const sameServer = originOf(current.whisperBaseUrl) === originOf(update.whisperBaseUrl);
    const whisperApiKey = update.whisperApiKey === undefined ? (sameServer ? current.whisperApiKey : undefined) : update.whisperApiKey || undefined;
    const next: VoiceSettings = { ...update, whisperApiKey };
    await this.db.settings.put({ key: 'voice', value: next });
    return next;
  }

  /** Saves an update. An omitted apiKey keeps the stored key if the provider stays the same. */
  async save(update: SettingsUpdate): Promise<ProviderSettings> {
    const current = await this.load();
    const keepKey = update.apiKey === undefined && current !== undefined && sameEndpoint(current, update);
    const next: ProviderSettings = { ...update, apiKey: keepKey ? current?.apiKey : update.apiKey || undefined };
    await this.db.settings.put({ key: 'provider', value: next });
    return next;
  }

  /** Fills an omitted key from storage, so "test connection" works before the key is retyped. */
  async withStoredKey(settings: ProviderSettings): Promise<ProviderSettings> {
    if (settings.apiKey !== undefined) return settings;
    const current = await this.load();
    return current && sameEndpoint(current, settings) ? { ...settings, apiKey: current.apiKey } : settings;
  }

  /** The tool-call format a model needs ('xml' once its server rejected native tools). */
  async toolMode(model: string): Promise<'native' | 'xml' | undefined> {
    const row = await this.db.settings.get('tool-modes');
    return row?.key === 'tool-modes' ? row.value[model] : undefined;
  }

  /** Read before every model call; only this store writes them. */
  async requestShape(model: string): Promise<RequestShape | undefined> {
    return (await this.shapes.get())[model];
  }

  async rememberRequestShape(model: string, shape: RequestShape): Promise<void> {
    await this.shapes.change(async () => {
      const row = await this.db.settings.get('request-shapes');
      const shapes = row?.key === 'request-shapes' ? row.value : {};
      await this.db.settings.put({ key: 'request-shapes', value: { ...shapes, [model]: shape } });
    });
  }

  private readonly shapes = new Kept(async (): Promise<Record<string, RequestShape>> => {
    const row = await this.db.settings.get('request-shapes');
    return row?.key === 'request-shapes' ? row.value : {};
  });

  async rememberToolMode(model: string, mode: 'native' | 'xml'): Promise<void> {
    const row = await this.db.settings.get('tool-modes');
    const modes = row?.key === 'tool-modes' ? row.value : {};
    await this.db.settings.put({ key: 'tool-modes', value: { ...modes, [model]: mode } });
  }
}

function originOf(url: string | undefined): string | undefined {
  return url ? new URL(url).origin : undefined;
}

export function toPublicVoiceSettings(settings: VoiceSettings): PublicVoiceSettings {
  const { whisperApiKey, ...rest } = settings;
  return { ...rest, hasWhisperKey: Boolean(whisperApiKey) };
}

/** A stored key is reused only for the same provider at the same origin: it never follows a new URL. */
function sameEndpoint(a: ProviderSettings, b: ProviderSettings): boolean {
  return a.provider === b.provider && new URL(a.baseUrl).origin === new URL(b.baseUrl).origin;
}

export function toPublicSettings(settings: ProviderSettings | undefined): PublicSettings | null {
  if (!settings) return null;
  const { apiKey, ...rest } = settings;
  const hint = keyHint(apiKey);
  return { ...rest, hasApiKey: Boolean(apiKey), ...(hint ? { apiKeyHint: hint } : {}) };
}
