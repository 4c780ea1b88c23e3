import { describe, expect, it } from 'vitest';
import { afterRestart, applyEdits, nextBatch, withinApproved } from '../../../src/background/workflow/plan';
import { approvedScope } from '../../../src/background/workflow/scope';
import { maskVisible } from '../../../src/background/workflow/mask-rule';
import type { WorkflowStep } from '../../../src/protocol';

const step = (id: string, site: string, permissions: WorkflowStep['permissions'] = ['read'], status: WorkflowStep['status'] = 'pending'): WorkflowStep => ({ id, agent: 'reader', task: `task ${id}`, site, permissions, status });
const edit = ({ id, task, site, permissions }: WorkflowStep) => ({ id, task, site, permissions });

describe('applyEdits', () => {
  const steps = [step('a', 'https://a.example/'), step('b', 'https://b.example/'), step('c', 'https://c.example/')];

  it('takes the user’s order, edits and removals, and says what changed', () => {
    const result = applyEdits(steps, [{ ...edit(steps[2]!), permissions: ['read', 'navigate'] }, edit(steps[0]!)]);
    expect(result.steps.map((s) => [s.id, s.permissions])).toEqual([['c', ['read', 'navigate']], ['a', ['read']]]);
    expect(result.changes).toEqual([
      'You removed “task b” (https://b.example/).',
      'You changed the order of the steps.',
      'You changed step “task c” (https://c.example/) to “task c” (https://c.example/) (read, navigate).',
    ]);
  });

  it('refuses steps that are not pending in the plan, or twice the same', () => {
    expect(() => applyEdits(steps, [{ ...edit(steps[0]!), id: 'zzz' }])).toThrow(/not a step of this plan/);
    expect(() => applyEdits(steps, [edit(steps[0]!), edit(steps[0]!)])).toThrow(/twice/);
    expect(() => applyEdits([{ ...steps[0]!, status: 'done' }], [edit(steps[0]!)])).toThrow(/not a step of this plan/);
  });

  it('keeps steps already run in front of the edited ones', () => {
    const ran = { ...steps[0]!, status: 'done' as const };
    expect(applyEdits([ran, steps[1]!], [edit(steps[1]!)]).steps.map((s) => s.id)).toEqual(['a', 'b']);
  });
});

describe('nextBatch', () => {
  it('runs read-only steps side by side up to the limit, and anything that acts alone', () => {
    const steps = [step('a', 'https://a.example/', ['read'], 'done'), step('b', 'https://b.example/'), step('c', 'https://c.example/'), step('d', 'https://d.example/')];
    expect(nextBatch(steps, 2).map((s) => s.id)).toEqual(['b', 'c']);
    expect(nextBatch(steps, 1).map((s) => s.id)).toEqual(['b']);
    const acting = [step('a', 'https://a.example/', ['read', 'interact']), step('b', 'https://b.example/')];
    expect(nextBatch(acting, 2).map((s) => s.id)).toEqual(['a']);
    expect(nextBatch([step('b', 'https://b.example/'), acting[0]!], 2).map((s) => s.id)).toEqual(['b']);
    expect(nextBatch([step('a', 'https://a.example/', ['read'], 'confirm')], 2)).toEqual([]);
  });
});

describe('scope derivation from an approved plan', () => {
  it('gives each site the most any step was approved to do there', () => {
    expect(approvedScope([step('a', 'https://shop.alpine.com/x'), step('b', 'https://www.alpine.com/y', ['read', 'navigate']), step('c', 'http://127.0.0.1:8000/z', ['read', 'interact'])])).toEqual([
      { site: 'https://alpine.com', level: 'navigate' },
      { site: 'http://127.0.0.1', level: 'interact' },
    ]);
  });

  it('lets a re-plan go on without asking only within the approved sites and levels', () => {
    const plan = { steps: [step('a', 'https://a.example/', ['read', 'navigate'])] };
    expect(withinApproved(plan, [step('n', 'https://a.example/other')])).toBe(true);
    expect(withinApproved(plan, [step('n', 'https://a.example/other', ['interact'])])).toBe(false);
    expect(withinApproved(plan, [step('n', 'https://b.example/')])).toBe(false);
  });
});

describe('afterRestart', () => {
  it('re-runs a read step that was running, and asks before one that may have changed something', () => {
    const { steps, confirm } = afterRestart([step('a', 'https://a.example/', ['read'], 'running'), step('b', 'https://b.example/', ['read', 'interact'], 'running'), step('c', 'https://c.example/', ['read'], 'done')]);
    expect(steps.map((s) => s.status)).toEqual(['pending', 'confirm', 'done']);
    expect(confirm.map((s) => s.id)).toEqual(['b']);
  });
});

describe('maskVisible (seed 001’s rule)', () => {
  const on = { agentRunning: true, windowHasFocus: true, activeTabId: 4, agentTabId: 4 };
  it('shows the mask only while the agent runs in the active tab of a focused window', () => {
    expect(maskVisible(on)).toBe(true);
    expect(maskVisible({ ...on, agentRunning: false })).toBe(false);
    expect(maskVisible({ ...on, windowHasFocus: false })).toBe(false);
    expect(maskVisible({ ...on, activeTabId: 5 })).toBe(false);
    expect(maskVisible({ ...on, agentTabId: undefined, activeTabId: undefined })).toBe(false);
  });
});
