import { describe, expect, it } from 'vitest';
import { parsePlan, plannerMessages, replanMessages, repairMessages } from '../../../src/background/workflow/planner';
import type { WorkflowPlan } from '../../../src/protocol';

const good = { steps: [{ task: 'Price at Alpine', site: 'https://alpine.example/jacket', permissions: ['read'] }] };

describe('parsePlan', () => {
  it('takes the JSON object as asked', () => {
    expect(parsePlan(JSON.stringify(good))).toEqual({ ok: true, steps: good.steps });
  });

  it('finds it inside a code fence or after chatter, as small models write it', () => {
    expect(parsePlan(`Sure! Here is the plan:\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\`\nHope it helps.`)).toEqual({ ok: true, steps: good.steps });
    expect(parsePlan(`Plan: ${JSON.stringify(good)}`)).toEqual({ ok: true, steps: good.steps });
  });

  it('mends the usual slips: a bare list, one permission as a string, "read-only", "url" for "site", no permissions', () => {
    const sloppy = [
      { task: 'A', url: 'https://a.example/', permissions: 'read-only' },
      { task: 'B', site: 'https://b.example/' },
      { task: 'C', site: 'https://c.example/', permissions: ['Navigate', 'click'] },
    ];
    expect(parsePlan(JSON.stringify(sloppy))).toEqual({
      ok: true,
      steps: [
        { task: 'A', site: 'https://a.example/', permissions: ['read'] },
        { task: 'B', site: 'https://b.example/', permissions: ['read'] },
        { task: 'C', site: 'https://c.example/', permissions: ['navigate', 'interact'] },
      ],
    });
  });

  it('names the problem when the answer is not JSON', () => {
    const parsed = parsePlan('I would first look at Alpine, then Boreal.');
    expect(parsed).toEqual({ ok: false, problem: expect.stringMatching(/not valid JSON/) });
  });

  it('names the problem when a step has no usable site, an unknown level or no task', () => {
    expect(parsePlan(JSON.stringify({ steps: [{ task: 'A', site: 'alpine.example' }] }))).toEqual({ ok: false, problem: expect.stringMatching(/steps\.0\.site: "site" must be a full http\(s\) address/) });
    expect(parsePlan(JSON.stringify({ steps: [{ task: 'A', site: 'https://a.example/', permissions: ['delete'] }] }))).toEqual({ ok: false, problem: expect.stringMatching(/permissions/) });
    expect(parsePlan(JSON.stringify({ steps: [{ task: ' ', site: 'https://a.example/' }] }))).toEqual({ ok: false, problem: expect.stringMatching(/empty "task"/) });
    expect(parsePlan(JSON.stringify({ steps: [] }))).toEqual({ ok: false, problem: expect.stringMatching(/no steps/) });
  });

  it('refuses a plan longer than the limit', () => {
    const many = { steps: Array.from({ length: 13 }, (_, i) => ({ task: `T${i}`, site: `https://s${i}.example/` })) };
    expect(parsePlan(JSON.stringify(many))).toEqual({ ok: false, problem: expect.stringMatching(/at most 12 steps/) });
  });
});

describe('planner messages', () => {
  it('asks for the JSON format and re-asks with the model’s answer and the problem', () => {
    const first = plannerMessages('Compare jackets');
    expect(first[0]!.content).toContain('"steps"');
    expect(first[1]).toEqual({ role: 'user', content: 'Compare jackets' });
    const again = repairMessages(first, 'no json here', 'It is not valid JSON.');
    expect(again.slice(-2)).toEqual([
      { role: 'assistant', content: 'no json here' },
      { role: 'user', content: expect.stringContaining('It is not valid JSON.') },
    ]);
  });

  it('re-plans with the whole plan and why the step failed', () => {
    const step = { id: 's1', agent: 'reader', task: 'Price at Alpine', site: 'https://a.example/', permissions: ['read' as const], status: 'failed' as const, result: 'no price on the page' };
    const plan = { intent: 'Compare jackets', steps: [step, { ...step, id: 's2', task: 'Price at Boreal', status: 'pending' as const, result: undefined }] } as WorkflowPlan;
    const text = replanMessages(plan, step)[1]!.content;
    expect(text).toContain('Research request: Compare jackets');
    expect(text).toContain('2. [pending] Price at Boreal');
    expect(text).toContain('Step “Price at Alpine” failed: no price on the page.');
  });
});
