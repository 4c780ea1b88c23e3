import { describe, expect, it } from 'vitest';
import { defaultSettingsFor, keyHint, PROVIDER_IDS, PROVIDER_PRESETS, ProviderSettings } from '../../src/protocol';

describe('keyHint', () => {
  it('shows nothing when there is no key', () => {
    expect(keyHint(undefined)).toBeUndefined();
    expect(keyHint('')).toBeUndefined();
  });

  it('shows only the last 4 characters of a long key', () => {
    const key = 'sk-proj-ABCDEFGHIJKLMNOP1234';
    const hint = keyHint(key)!;
    expect(hint).toBe('••••1234');
    expect(hint.replace(/•/g, '')).toHaveLength(4);
  });

  it('reveals no characters at all of a short key', () => {
    for (const key of ['a', 'abcd', 'abcdefgh']) {
      expect(keyHint(key)).toBe('••••');
    }
  });

  it('never reveals more than the last 4 characters, whatever the length', () => {
    for (let length = 1; length <= 40; length++) {
      const key = Array.from({ length }, (_, i) => String.fromCharCode(65 + (i % 26))).join('');
      const visible = keyHint(key)!.replace(/^•+/, '');
      expect(visible.length).toBeLessThanOrEqual(4);
      expect(key.endsWith(visible)).toBe(true);
    }
  });
});

describe('provider presets', () => {
  it('gives every provider defaults that pass validation (except custom, which needs a model, and Azure, whose URL is the user’s own)', () => {
    for (const id of PROVIDER_IDS) {
      const result = ProviderSettings.safeParse(defaultSettingsFor(id));
      expect(result.success, id).toBe(id !== 'custom' && id !== 'azure');
      expect(PROVIDER_PRESETS[id].id).toBe(id);
    }
  });

  it('uses the anthropic wire format only for anthropic', () => {
    const anthropicWire = PROVIDER_IDS.filter((id) => PROVIDER_PRESETS[id].wire === 'anthropic');
    expect(anthropicWire).toEqual(['anthropic']);
  });
});
