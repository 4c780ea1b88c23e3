import * as z from 'zod/mini';
import { beforeEach, describe, expect, it } from 'vitest';
import { PermissionBroker, USER } from '../../../src/background/gate/permission-broker';
import { GatedTask, StepGate, type TaskTab } from '../../../src/background/gate/step-gate';
import { ToolRegistry } from '../../../src/background/tools/registry';
import { defineTool, type Tool } from '../../../src/background/tools/tool';
import { JawadDatabase } from '../../../src/db/database';
import { HarborStore } from '../../../src/db/harbor-store';
import type { TargetDescription } from '../../../src/protocol';

const PAGE: TaskTab = { id: 3, url: 'http://127.0.0.1:8080/account', windowId: 1 };

let asked: unknown[];
let gate: StepGate;
let task: GatedTask;
let described: TargetDescription;
let stop: AbortController;

beforeEach(async () => {
  asked = [];
  described = { role: 'textbox', name: 'Password', tag: 'input', inputType: 'password', submits: false, documentId: 'doc-1', documentUrl: PAGE.url };
  const session = new Map<string, unknown>();
  const tools = new ToolRegistry([
    defineTool({
      name: 'get',
      description: 'g',
      params: z.object({ ref: z.optional(z.string()), what: z.enum(['title', 'value']) }),
      level: 'read-only',
      effects: { target: 'get', readsValue: true },
      run: async ({ what }) => ({ value: what === 'title' ? 'Account' : 'hunter2' }),
    }),
  ] as Tool[]);
  gate = new StepGate({
    tools,
    harbor: new HarborStore(new JawadDatabase(`gate-${crypto.randomUUID()}`), { get: async (key) => session.get(key), set: async (key, value) => void session.set(key, value) }),
    steps: { put: async () => undefined },
    broker: new PermissionBroker(),
    describe: async (_where, request) => (asked.push(request.target), described),
    tabs: { active: async () => PAGE, url: async () => PAGE.url },
    emit: () => undefined,
  });
  stop = new AbortController();
  task = await gate.open({ principal: USER, conversationId: 'c', messageId: 'm', requestId: 'r', eventRequestId: 'r', signal: stop.signal }, '');
});

describe('StepGate, asking the page about a target', () => {
  it('a read of the page itself (its title) runs without asking the page what the target is', async () => {
    const end = await gate.step(task, { name: 'get', arguments: '{"what":"title"}' });
    expect(end.outcome).toMatchObject({ success: true, data: { value: 'Account' } });
    expect(asked).toEqual([]);
    expect(task.steps.at(-1)).toMatchObject({ verdict: 'auto-approve', status: 'done' });
  });

  it('a read of an element still asks the page, so reading a secret field is caught', async () => {
    const waiting = gate.step(task, { name: 'get', arguments: '{"ref":"e4","what":"value"}' });
    await expect.poll(() => task.steps.at(-1)?.status).toBe('asking');
    expect(asked).toEqual([{ ref: 'e4' }]);
    expect(task.steps.at(-1)).toMatchObject({ critical: true, reasons: [expect.stringContaining('secret field')] });
    stop.abort();
    expect((await waiting).outcome).toBeUndefined();
  });
});
