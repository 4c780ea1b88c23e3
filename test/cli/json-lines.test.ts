import { describe, expect, it } from 'vitest';
import { answerLine, errorLine, StepPrinter, stepLine } from '../../cli/json-lines';
import type { AgentStep, StoredMessage } from '../../src/protocol';

function step(overrides: Partial<AgentStep> = {}): AgentStep {
  return {
    id: 'step-1', conversationId: 'c1', messageId: 'a1', requestId: 'runner-1a2b3c4d:chat-1:step-1', index: 1, createdAt: 1,
    tool: 'click', params: { ref: 'e3' }, site: 'http://127.0.0.1', level: 'interact', critical: false, reasons: ['Clicks “Save”'],
    egress: [], verdict: 'ask', grantable: true, promptRaised: true, status: 'asking', ...overrides,
  };
}

const answer: StoredMessage = { id: 'a1', conversationId: 'c1', role: 'assistant', content: 'Saved.', status: 'complete', createdAt: 2, requestId: 'runner-1a2b3c4d:chat-1' };

describe('stepLine', () => {
  it('is one line of JSON with the fields a script reads, null for what is not known', () => {
    const line = stepLine(step({ status: 'denied', decision: 'deny' }));
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      type: 'step', index: 1, tool: 'click', params: { ref: 'e3' }, site: 'http://127.0.0.1', level: 'interact',
      critical: false, promptRaised: true, decision: 'deny', status: 'denied', result: null,
    });
  });

  it('carries the tool’s result summary and error', () => {
    const result = { success: false, summary: 'click failed', error: { code: 'COVERED' as const, message: 'Covered by dialog' } };
    expect(JSON.parse(stepLine(step({ status: 'failed', decision: 'allow-once', result }))).result).toEqual(result);
  });
});

describe('answerLine', () => {
  it('reports status and text, with usage and error only when there are some', () => {
    expect(JSON.parse(answerLine(answer))).toEqual({ type: 'answer', status: 'complete', text: 'Saved.' });
    const failed = { ...answer, status: 'error' as const, content: '', usage: { inputTokens: 10, outputTokens: 2 }, error: { code: 'LLM_ERROR' as const, message: 'Server error' } };
    expect(JSON.parse(answerLine(failed))).toEqual({
      type: 'answer', status: 'error', text: '', usage: { inputTokens: 10, outputTokens: 2 }, error: { code: 'LLM_ERROR', message: 'Server error' },
    });
  });

  it('keeps a multi-line answer on one line', () => {
    expect(answerLine({ ...answer, content: 'one\ntwo' }).split('\n')).toHaveLength(1);
  });
});

describe('errorLine', () => {
  it('names the failure', () => {
    expect(JSON.parse(errorLine('No build'))).toEqual({ type: 'error', message: 'No build' });
  });
});

describe('StepPrinter', () => {
  it('prints a step once, when it finishes, not while it asks or runs', () => {
    const lines: string[] = [];
    const printer = new StepPrinter((line) => lines.push(line));
    printer.onStep(step({ status: 'asking' }));
    printer.onStep(step({ status: 'running', decision: 'allow-once' }));
    printer.onStep(step({ status: 'done', decision: 'allow-once' }));
    printer.onStep(step({ status: 'done', decision: 'allow-once' }));
    expect(lines.map((line) => JSON.parse(line).status)).toEqual(['done']);
  });

  it('flushes the steps that never finished, in index order, after the printed ones', () => {
    const lines: string[] = [];
    const printer = new StepPrinter((line) => lines.push(line));
    const snapshot = step({ id: 's0', index: 0, tool: 'snapshot', status: 'done', verdict: 'auto-approve', promptRaised: false });
    printer.onStep(snapshot);
    printer.flush([step({ id: 's2', index: 2, tool: 'fill', status: 'asking' }), snapshot, step({ id: 's1', index: 1, status: 'running' })]);
    expect(lines.map((line) => JSON.parse(line).index)).toEqual([0, 1, 2]);
  });
});
