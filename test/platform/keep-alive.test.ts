import { describe, expect, it, vi } from 'vitest';

const alarms = vi.hoisted(() => ({ create: vi.fn(), clear: vi.fn(), onAlarm: { addListener: vi.fn() } }));
vi.mock('webextension-polyfill', () => ({ default: { alarms } }));
import { keepBackgroundAlive } from '../../src/platform/keep-alive';

/** Whether the last word to the alarms API left the keep-alive alarm running. */
const running = () => (alarms.create.mock.invocationCallOrder.at(-1) ?? 0) > (alarms.clear.mock.invocationCallOrder.at(-1) ?? 0);

describe('keepBackgroundAlive', () => {
  it('keeps the alarm while the bridge or a research workflow needs it, and clears it only when neither does', () => {
    keepBackgroundAlive(true, 'bridge');
    keepBackgroundAlive(true, 'research');
    expect(running()).toBe(true);
    keepBackgroundAlive(false, 'bridge'); // the bridge turned off mid-workflow
    expect(running()).toBe(true);
    keepBackgroundAlive(false, 'research');
    expect(running()).toBe(false);
  });
});
