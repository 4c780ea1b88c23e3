/**
 * What the external agent bridge keeps across a stopped background: whether it is on, the relay's
 * URL, and the paired clients. It lives in the extension's IndexedDB, which content scripts cannot
 * open (storage.local would let them read it); tokens are stored only as SHA-256 hashes.
 */
import { DEFAULT_BRIDGE_URL, isLoopbackBridgeUrl } from '../protocol/bridge';
import type { BridgeClientRow, JawadDatabase } from './database';

export interface BridgeConnectionSettings {
  enabled: boolean;
  url: string;
}

const DEFAULT_SETTINGS: BridgeConnectionSettings = { enabled: false, url: DEFAULT_BRIDGE_URL };

export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** 32 random bytes, hex: what a client holds after the user paired it. */
export function newToken(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class BridgeStore {
  constructor(private readonly db: JawadDatabase) {}

  async settings(): Promise<BridgeConnectionSettings> {
    const row = await this.db.settings.get('bridge');
    if (row?.key !== 'bridge' || !isLoopbackBridgeUrl(row.value.url)) return { ...DEFAULT_SETTINGS };
    return { enabled: Boolean(row.value.enabled), url: row.value.url };
  }

  async saveSettings(settings: BridgeConnectionSettings): Promise<BridgeConnectionSettings> {
    await this.db.settings.put({ key: 'bridge', value: settings });
    return settings;
  }

  /** Pairs a client: returns its row and the token to hand it (never stored in clear). */
  async pair(name: string, now = Date.now()): Promise<{ client: BridgeClientRow; token: string }> {
    const token = newToken();
    const client: BridgeClientRow = { id: `client-${newToken().slice(0, 12)}`, name, tokenHash: await hashToken(token), pairedAt: now };
    await this.db.bridgeClients.put(client);
    return { client, token };
  }

  /** The paired client holding this token, if any. */
  async byToken(token: string): Promise<BridgeClientRow | undefined> {
    return this.db.bridgeClients.where('tokenHash').equals(await hashToken(token)).first();
  }

  clients(): Promise<BridgeClientRow[]> {
    return this.db.bridgeClients.orderBy('id').toArray();
  }

  async unpair(clientId: string): Promise<void> {
    await this.db.bridgeClients.delete(clientId);
  }
}
