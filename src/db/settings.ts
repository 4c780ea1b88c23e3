import { keyHint, type ProviderSettings, type PublicSettings, type SettingsUpdate } from '../protocol';
import type { JawadDatabase } from './database';

export class SettingsStore {
  constructor(private readonly db: JawadDatabase) {}

  async load(): Promise<ProviderSettings | undefined> {
    return (await this.db.settings.get('provider'))?.value;
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
