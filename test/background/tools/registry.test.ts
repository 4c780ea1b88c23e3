import * as z from 'zod/mini';
import { describe, expect, it, vi } from 'vitest';

vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../../src/background/page-scripts', () => ({}));
import { click } from '../../../src/background/tools/click';
import { ToolRegistry } from '../../../src/background/tools/registry';
import { defineTool, type Tool } from '../../../src/background/tools/tool';
import { JawadError } from '../../../src/protocol';

const echo = defineTool({
  name: 'echo',
  description: 'Says it back',
  params: z.object({ text: z.string().check(z.minLength(1)), times: z._default(z.int().check(z.minimum(1)), 1) }),
  level: 'read-only',
  effects: {},
  inertParams: ['text', 'times'],
  run: async ({ text, times }) => text.repeat(times),
});

function slowTool(seen: { aborted?: boolean }): Tool {
  return defineTool({
    name: 'slow',
    description: 'Never finishes on its own',
    params: z.object({}),
    level: 'navigate',
    effects: {},
    timeoutMs: 50,
    run: (_params, { signal }) =>
      new Promise(() => {
        signal.addEventListener('abort', () => (seen.aborted = true));
      }),
  }) as Tool;
}

const context = { requestId: 'user-00000001:tool-00000002' };

describe('ToolRegistry', () => {
  it('lists tools as OpenAI function definitions with JSON Schema and their permission level', () => {
    const [listing] = new ToolRegistry([echo as Tool]).list();
    expect(listing).toEqual({
      type: 'function',
      function: {
        name: 'echo',
        description: 'Says it back',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string', minLength: 1 }, times: { type: 'integer', minimum: 1, default: 1, maximum: Number.MAX_SAFE_INTEGER } },
          required: ['text'],
        },
      },
      permission: 'read-only',
    });
  });

  it('runs a tool with its defaults applied and reports the duration', async () => {
    const result = await new ToolRegistry([echo as Tool]).execute('echo', { text: 'ab' }, context);
    expect(result).toMatchObject({ success: true, data: 'ab' });
    expect(result.duration).toBeGreaterThanOrEqual(0);
  });

  it('refuses bad parameters with VALIDATION_ERROR naming each parameter, without running the tool', async () => {
    const result = await new ToolRegistry([echo as Tool]).execute('echo', { text: '', times: 'twice' }, context);
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe('VALIDATION_ERROR');
    const details = result.error?.details as Array<{ parameter: string }>;
    expect(details.map((d) => d.parameter).sort()).toEqual(['text', 'times']);
    // The reasons are in the message, which is what a model reads.
    expect(result.error?.message).toMatch(/^Invalid parameters for echo — (text|times): .+; (text|times): .+\.$/);
  });

  it('tells a model that answers a prompt box without accepting it how to call again, without clicking', async () => {
    const result = await new ToolRegistry([click as Tool]).execute('click', { ref: 'e4', dialogText: 'Q4 plan' }, context);
    expect(result.error?.code).toBe('VALIDATION_ERROR');
    expect(result.error?.message).toContain('dialogText answers a prompt box only together with acceptDialog: true');
  });

  it('answers an unknown tool with TOOL_NOT_FOUND', async () => {
    const result = await new ToolRegistry([echo as Tool]).execute('format_disk', {}, context);
    expect(result.error).toEqual({ code: 'TOOL_NOT_FOUND', message: 'There is no tool named “format_disk”.' });
  });

  it('stops a tool that runs past its time limit with TIMEOUT and aborts its signal', async () => {
    const seen: { aborted?: boolean } = {};
    const result = await new ToolRegistry([slowTool(seen)]).execute('slow', {}, context);
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.error?.message).toBe('slow did not finish within 0.1 s.');
    expect(seen.aborted).toBe(true);
    expect(result.duration).toBeGreaterThanOrEqual(45);
  });

  it('gives a tool that works its time limit out from its parameters (a snapshot told to wait) that limit', async () => {
    const waits = defineTool({
      name: 'waits',
      description: 'Finishes after the time it is told',
      params: z.object({ ms: z.int() }),
      level: 'read-only',
      effects: {},
      timeoutMs: ({ ms }) => ms + 50,
      run: ({ ms }) => new Promise((done) => setTimeout(() => done('done'), ms)),
    }) as Tool;
    const registry = new ToolRegistry([waits]);
    expect(await registry.execute('waits', { ms: 120 }, context)).toMatchObject({ success: true, data: 'done' });
    // A caller's own limit still wins.
    expect((await registry.execute('waits', { ms: 120 }, context, 60)).error?.code).toBe('TIMEOUT');
  });

  it('keeps the code of a JawadError and turns other throws into EXECUTION_ERROR', async () => {
    const failing = (error: unknown) =>
      defineTool({ name: 'fails', description: 'x', params: z.object({}), level: 'read-only', effects: {}, run: async () => Promise.reject(error) }) as Tool;
    const stale = await new ToolRegistry([failing(new JawadError('STALE_REF', 'e12 is gone'))]).execute('fails', {}, context);
    expect(stale.error).toEqual({ code: 'STALE_REF', message: 'e12 is gone' });
    const boom = await new ToolRegistry([failing(new Error('boom'))]).execute('fails', {}, context);
    expect(boom.error).toEqual({ code: 'EXECUTION_ERROR', message: 'boom' });
  });

  it('refuses two tools with one name', () => {
    expect(() => new ToolRegistry([echo as Tool, echo as Tool])).toThrow(/Two tools are named echo/);
  });

  it('cancels a running tool when the caller stops, and never starts one for a caller already stopped', async () => {
    const seen: { aborted?: boolean } = {};
    const stop = new AbortController();
    const running = new ToolRegistry([slowTool(seen)]).execute('slow', {}, { ...context, signal: stop.signal }, 5_000);
    stop.abort();
    expect((await running).error).toMatchObject({ code: 'CANCELLED' });
    expect(seen.aborted).toBe(true);
    let started = false;
    const never = defineTool({ name: 'never', description: 'x', params: z.object({}), level: 'read-only', effects: {}, run: async () => void (started = true) }) as Tool;
    const refused = await new ToolRegistry([never]).execute('never', {}, { ...context, signal: stop.signal });
    expect(refused.error).toMatchObject({ code: 'CANCELLED' });
    expect(started).toBe(false);
  });
});
