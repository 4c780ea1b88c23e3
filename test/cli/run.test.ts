import { describe, expect, it } from 'vitest';
import { runnerDecision } from '../../cli/run';
import type { Approval } from '../../cli/args';

const ALLOWS: Approval[] = ['allow-once', 'allow-site', 'allow-session'];
const plain = { critical: false };
const critical = { critical: true };

describe('runnerDecision', () => {
  it('answers an ordinary step with --approve as given', () => {
    for (const approve of [...ALLOWS, 'deny'] as const) {
      expect(runnerDecision(plain, { approve, approveCritical: false })).toBe(approve);
      expect(runnerDecision(plain, { approve, approveCritical: true })).toBe(approve);
    }
  });

  it('denies a critical step whatever --approve says, unless --approve-critical was passed', () => {
    for (const approve of ALLOWS) expect(runnerDecision(critical, { approve, approveCritical: false })).toBe('deny');
    expect(runnerDecision(critical, { approve: 'deny', approveCritical: false })).toBe('deny');
  });

  it('with --approve-critical allows a critical step once, never as a standing grant', () => {
    for (const approve of ALLOWS) expect(runnerDecision(critical, { approve, approveCritical: true })).toBe('allow-once');
    expect(runnerDecision(critical, { approve: 'deny', approveCritical: true })).toBe('deny');
  });
});
