/**
 * Every test, bench and `jawad run` launches a browser; one that leaves its profile behind fills the
 * temp folder (this machine once held 336 Chromium profiles of ~6 MB). A profile the launch made is
 * removed when the browser closes; one it was given (durability.e2e.ts restarts on it) stays.
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browsersUnderTest, launchJawad } from './support/extension-browser';

describe.each(browsersUnderTest())('launching %s', (browserName) => {
  it('removes the profile it made for itself when the browser closes', async () => {
    const jawad = await launchJawad(browserName);
    const { profileDir } = jawad;
    try {
      // The browser really runs on it: it wrote its files there.
      expect(readdirSync(profileDir).length).toBeGreaterThan(0);
    } finally {
      await jawad.close();
    }
    expect(existsSync(profileDir)).toBe(false);
  });
});
