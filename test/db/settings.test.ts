import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JawadDatabase } from '../../src/db/database';
import { SettingsStore, toPublicSettings } from '../../src/db/settings';
import type { ProviderSettings } from '../../src/protocol';
import { PublicSettings } from '../../src/protocol';

let db: JawadDatabase;
let store: SettingsStore;

beforeEach(() => {
  db = new JawadDatabase(`test-${crypto.randomUUID()}`);
  store = new SettingsStore(db);
});
afterEach(async () => {
  await db.delete();
});

const openai: ProviderSettings = { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', timeoutSeconds: 60 };
const KEY = 'sk-proj-abcdefghijklmnop9876';

describe('SettingsStore', () => {
  it('remembers a request shape per model, across a reopened database', async () => {
    await store.rememberRequestShape('custom http://x/v1 a', { maxTokensField: 'max_completion_tokens', drop: [] });
    await store.rememberRequestShape('custom http://x/v1 b', { maxTokensField: 'max_tokens', drop: ['stream_options'] });
    const reopened = new SettingsStore(new JawadDatabase(db.name));
    expect(await reopened.requestShape('custom http://x/v1 a')).toEqual({ maxTokensField: 'max_completion_tokens', drop: [] });
    expect(await reopened.requestShape('custom http://x/v1 b')).toEqual({ maxTokensField: 'max_tokens', drop: ['stream_options'] });
    expect(await reopened.requestShape('custom http://x/v1 c')).toBeUndefined();
  });

  it('reads two pages at once in research mode until the user chooses otherwise, across a reopened database', async () => {
    expect((await store.loadResearch()).parallel).toBe(2);
    await store.saveResearch({ parallel: 3 });
    expect((await new SettingsStore(new JawadDatabase(db.name)).loadResearch()).parallel).toBe(3);
  });

  it('has nothing before the first save', async () => {
    expect(await store.load()).toBeUndefined();
  });

  it('saves and loads settings with the key', async () => {
    await store.save({ ...openai, apiKey: KEY });
    expect(await store.load()).toMatchObject({ ...openai, apiKey: KEY });
  });

  it('keeps the stored key when the update omits it for the same provider and origin', async () => {
    await store.save({ ...openai, apiKey: KEY });
    const saved = await store.save({ ...openai, model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1/' });
    expect(saved.apiKey).toBe(KEY);
    expect(await store.load()).toMatchObject({ model: 'gpt-4o', apiKey: KEY });
  });

  it('drops the key when the base URL moves to another origin: a key never follows a new URL', async () => {
    await store.save({ ...openai, apiKey: KEY });
    const saved = await store.save({ ...openai, baseUrl: 'https://evil.example.com/v1' });
    expect(saved.apiKey).toBeUndefined();
    expect((await store.load())?.apiKey).toBeUndefined();
  });

  it('drops the key when only the port changes', async () => {
    await store.save({ ...openai, provider: 'custom', baseUrl: 'http://localhost:8000/v1', apiKey: KEY });
    const saved = await store.save({ ...openai, provider: 'custom', baseUrl: 'http://localhost:8001/v1' });
    expect(saved.apiKey).toBeUndefined();
  });

  it('drops the key when the provider changes', async () => {
    await store.save({ ...openai, apiKey: KEY });
    const saved = await store.save({ ...openai, provider: 'openrouter' });
    expect(saved.apiKey).toBeUndefined();
  });

  it('removes the key when the update sends an empty string', async () => {
    await store.save({ ...openai, apiKey: KEY });
    await store.save({ ...openai, apiKey: '' });
    expect((await store.load())?.apiKey).toBeUndefined();
    expect(toPublicSettings(await store.load())?.hasApiKey).toBe(false);
  });

  it('replaces the key when a new one is typed', async () => {
    await store.save({ ...openai, apiKey: KEY });
    await store.save({ ...openai, apiKey: 'sk-new-key-0000' });
    expect((await store.load())?.apiKey).toBe('sk-new-key-0000');
  });

  it('withStoredKey fills the key for the same endpoint only', async () => {
    await store.save({ ...openai, apiKey: KEY });
    expect((await store.withStoredKey({ ...openai, model: 'o3' })).apiKey).toBe(KEY);
    expect((await store.withStoredKey({ ...openai, baseUrl: 'https://other.example/v1' })).apiKey).toBeUndefined();
    expect((await store.withStoredKey({ ...openai, apiKey: 'typed' })).apiKey).toBe('typed');
  });
});

describe('toPublicSettings', () => {
  it('returns null when nothing is configured', () => {
    expect(toPublicSettings(undefined)).toBeNull();
  });

  it('never contains the key, only whether there is one and its last 4 characters', () => {
    const shown = toPublicSettings({ ...openai, apiKey: KEY })!;
    expect(shown).not.toHaveProperty('apiKey');
    expect(JSON.stringify(shown)).not.toContain(KEY.slice(0, -4));
    expect(shown).toMatchObject({ hasApiKey: true, apiKeyHint: '••••9876', model: 'gpt-4o-mini' });
    expect(PublicSettings.safeParse(shown).success).toBe(true);
  });

  it('has no hint without a key', () => {
    const shown = toPublicSettings(openai)!;
    expect(shown.hasApiKey).toBe(false);
    expect(shown).not.toHaveProperty('apiKeyHint');
  });
});
