import { describe, expect, it } from 'vitest';
import { sandboxFlags } from '../../cli/launch';

describe('sandboxFlags', () => {
  it('turns Chromium’s sandbox off only for root', () => {
    expect(sandboxFlags(0)).toEqual(['--no-sandbox']);
    expect(sandboxFlags(1000)).toEqual([]);
  });
});
