import { describe, expect, it } from 'vitest';
import { progressReport } from '../../../src/background/agent/report';
import type { AgentStep } from '../../../src/protocol';
import { agentStep } from '../../support/agent-step';

const step = (index: number, tool: string, status: AgentStep['status'], extra: Partial<AgentStep> = {}): AgentStep =>
  agentStep({ id: `s${index}`, index, createdAt: index, tool, level: 'read-only', verdict: 'auto-approve', status, ...extra });

describe('progressReport', () => {
  it('says why the task ended and lists each step with its fate', () => {
    const report = progressReport([
      step(1, 'snapshot', 'done'),
      step(2, 'click', 'failed', { target: { role: 'button', name: 'Add to cart' }, result: { success: false, summary: 'Covered by the cookie banner' } }),
      step(3, 'click', 'denied', { target: { role: 'button', name: 'Place order' } }),
    ], 'You stopped the task.');
    expect(report).toBe('\n\n**You stopped the task.**\n\nSteps (1 of 3 done):\n1. snapshot: done\n2. click “Add to cart”: failed (Covered by the cookie banner)\n3. click “Place order”: denied');
  });

  it('says so when nothing was done', () => {
    expect(progressReport([], 'The model ended without an answer.')).toContain('No step was taken.');
  });
});
