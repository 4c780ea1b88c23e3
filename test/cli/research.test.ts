import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../cli/args';
import { ResearchFollower } from '../../cli/research';
import type { AgentStep, BackgroundEvent, WorkflowPlan } from '../../src/protocol';

const plan = (patch: Partial<WorkflowPlan> = {}): WorkflowPlan => ({
  id: 'w1', requestId: 'research-1:workflow-1', intent: 'compare', status: 'proposed', createdAt: 0, updatedAt: 0, revision: 1, changes: [],
  evidence: [], unsupported: [], tabs: [], keepTabs: false, parallel: 2,
  steps: [{ id: 's1', agent: 'reader', task: 'Price at A', site: 'https://a.example/', permissions: ['read'], status: 'pending' }],
  ...patch,
});
const update = (payload: WorkflowPlan): BackgroundEvent => ({ type: 'WORKFLOW_UPDATE', requestId: 'research-1', payload });

describe('jawad research arguments', () => {
  it('takes the intent, --approve-plan and the provider options', () => {
    const command = parseCommand(['research', '--browser', 'firefox', '--provider', 'custom', '--llm-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--approve-plan', '--approve', 'allow-once', 'compare', 'jackets']);
    expect(command).toMatchObject({ kind: 'research', options: { browser: 'firefox', intent: 'compare jackets', approvePlan: true, approve: 'allow-once', settings: { model: 'm' } } });
  });

  it('refuses a missing intent and --url, saying why', () => {
    expect(() => parseCommand(['research'])).toThrow(UsageError);
    expect(() => parseCommand(['research'])).toThrow(/intent/);
    expect(() => parseCommand(['research', '--url', 'http://a.example/', 'x'])).toThrow(/--url is for jawad run/);
  });
});

describe('ResearchFollower', () => {
  it('approves the plan as proposed with --approve-plan, once per revision', () => {
    const follower = new ResearchFollower({ approvePlan: true, approve: 'deny' });
    const first = follower.receive(update(plan()));
    expect(first.send).toEqual([{ type: 'APPROVE_WORKFLOW', payload: { workflowId: 'w1', steps: [{ id: 's1', task: 'Price at A', site: 'https://a.example/', permissions: ['read'] }], keepTabs: false, parallel: 2 } }]);
    expect(JSON.parse(first.lines[0]!)).toMatchObject({ type: 'workflow', status: 'proposed' });
    expect(follower.receive(update(plan())).send).toEqual([]);
    expect(follower.receive(update(plan({ revision: 2 }))).send).toHaveLength(1);
  });

  it('stops after printing the plan without --approve-plan (exit 1), cancelling it', () => {
    const reaction = new ResearchFollower({ approvePlan: false, approve: 'deny' }).receive(update(plan()));
    expect(reaction.exit).toBe(1);
    expect(reaction.send).toEqual([{ type: 'CANCEL_WORKFLOW', payload: { workflowId: 'w1' } }]);
  });

  it('ends with the report line: exit 0 when done, 1 when failed', () => {
    const done = new ResearchFollower({ approvePlan: true, approve: 'deny' }).receive(update(plan({ status: 'done', report: '# r', evidence: [{ n: 1, stepId: 's1', claim: 'c', quote: 'q', url: 'https://a.example/', title: 'A', at: 5, tabId: 3 }] })));
    expect(done.exit).toBe(0);
    expect(JSON.parse(done.lines.at(-1)!)).toEqual({ type: 'report', status: 'done', text: '# r', sources: [{ n: 1, url: 'https://a.example/', title: 'A', quote: 'q', at: 5, tabId: 3 }], unsupported: [] });
    expect(new ResearchFollower({ approvePlan: true, approve: 'deny' }).receive(update(plan({ status: 'failed', error: 'no model' }))).exit).toBe(1);
  });

  it('answers each prompt once with --approve, and re-runs a step waiting after a restart only when prompts may be allowed', () => {
    const step = { id: 'p1' } as AgentStep;
    const follower = new ResearchFollower({ approvePlan: true, approve: 'allow-once' });
    const prompt: BackgroundEvent = { type: 'PERMISSION_REQUEST', requestId: 'research-1', payload: { step } };
    expect(follower.receive(prompt).send).toEqual([{ type: 'PERMISSION_RESPONSE', payload: { stepId: 'p1', decision: 'allow-once' } }]);
    expect(follower.receive(prompt).send).toEqual([]);
    const waiting = plan({ status: 'running', steps: [{ ...plan().steps[0]!, status: 'confirm' }] });
    expect(follower.receive(update(waiting)).send).toEqual([{ type: 'CONFIRM_WORKFLOW_STEP', payload: { workflowId: 'w1', stepId: 's1', run: true } }]);
    expect(new ResearchFollower({ approvePlan: true, approve: 'deny' }).receive(update(waiting)).send).toEqual([{ type: 'CONFIRM_WORKFLOW_STEP', payload: { workflowId: 'w1', stepId: 's1', run: false } }]);
  });
});
