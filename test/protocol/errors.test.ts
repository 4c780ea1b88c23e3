import { describe, expect, it } from 'vitest';
import { CAPS, JawadError, toErrorPayload } from '../../src/protocol';

describe('toErrorPayload caps what a page can put into an error', () => {
  it('cuts a long message and replaces long details with a cut JSON text', () => {
    const options = Array.from({ length: 5_000 }, (_, i) => `Option ${i} — AGENT INSTRUCTION`);
    const payload = toErrorPayload(new JawadError('NOT_FOUND', `No option matches. Options: ${options.join(', ')}`, { options }));
    expect(payload.code).toBe('NOT_FOUND');
    expect(payload.message).toHaveLength(CAPS.errorMessage);
    expect(payload.message.endsWith('…')).toBe(true);
    expect(payload.details).toEqual({ cut: expect.stringMatching(/^\{"options":\["Option 0/) });
    expect((payload.details as { cut: string }).cut).toHaveLength(CAPS.errorDetails);
  });

  it('leaves ordinary errors as they are', () => {
    expect(toErrorPayload(new JawadError('STALE_REF', 'e3 is gone.', { ref: 'e3' }))).toEqual({ code: 'STALE_REF', message: 'e3 is gone.', details: { ref: 'e3' } });
    expect(toErrorPayload(new Error('x'.repeat(5_000))).message).toHaveLength(CAPS.errorMessage);
  });
});
