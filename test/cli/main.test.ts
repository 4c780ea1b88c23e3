import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { exitCodeFor } from '../../cli/run';
import type { StoredMessage } from '../../src/protocol';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { line: (text: string) => void out.push(text), progress: (text: string) => void err.push(text) } };
}

describe('main', () => {
  it('prints the usage on stdout for --help and exits 0', async () => {
    const { out, err, output } = capture();
    expect(await main(['--help'], {}, output)).toBe(0);
    expect(out.join('\n')).toContain('Usage: jawad run');
    expect(err).toEqual([]);
  });

  it('exits 2 on a usage error, saying what is wrong and then the usage, on stderr only', async () => {
    const { out, err, output } = capture();
    expect(await main(['run', '--url', 'http://127.0.0.1/', '--approve', 'sure', 'task'], {}, output)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(/--approve must be one of deny, allow-once, allow-site, allow-session[\s\S]*Usage: jawad run/);
  });
});

describe('exitCodeFor', () => {
  const answer = (status: StoredMessage['status']): StoredMessage =>
    ({ id: 'a', conversationId: 'c', role: 'assistant', content: '', status, createdAt: 0, requestId: 'runner-1' });

  it('is 0 only when the model finished its answer', () => {
    expect(exitCodeFor(answer('complete'))).toBe(0);
    for (const status of ['stopped', 'interrupted', 'error'] as const) expect(exitCodeFor(answer(status))).toBe(1);
  });
});
