import * as z from 'zod/mini';
import { clipText, JawadError, toErrorPayload, type ToolListing, type ToolResult } from '../../protocol';
import type { Tool, ToolContext } from './tool';

export const DEFAULT_TOOL_TIMEOUT_MS = 15_000;

/** What execute() resolves to: the protocol's TOOL_RESULT without the tool's name. */
export type ToolOutcome = Omit<ToolResult, 'toolName'>;

function parametersSchema(tool: Tool): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

/**
 * The one list of tools. The tools panel, the agent and the external bridge all execute through
 * it, so validation, time limits and the result shape are the same for everyone.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Tool[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`Two tools are named ${tool.name}`);
      this.tools.set(tool.name, tool);
    }
  }

  list(): ToolListing[] {
    return [...this.tools.values()].map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: parametersSchema(tool) },
      permission: tool.level,
    }));
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /**
   * Validates, runs under a time limit, and never throws: every outcome is a ToolResult. A caller's
   * `signal` (the user pressed Stop) cancels the run: a tool never starts once it has fired.
   */
  async execute(name: string, parameters: unknown, context: CallerContext, timeoutMs?: number): Promise<ToolOutcome> {
    const started = performance.now();
    const finish = (outcome: Omit<ToolOutcome, 'duration'>): ToolOutcome => ({ ...outcome, duration: Math.round(performance.now() - started) });
    const tool = this.tools.get(name);
    if (!tool) return finish({ success: false, error: { code: 'TOOL_NOT_FOUND', message: `There is no tool named “${clipText(name, 100)}”.` } });
    const parsed = tool.params.safeParse(parameters ?? {});
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => ({ parameter: issue.path.map(String).join('.') || '(all)', message: issue.message, code: issue.code }));
      // The reasons go in the message: it is what the model reads, and without them it cannot correct the call.
      const reasons = details.map((detail) => `${detail.parameter}: ${detail.message}`).join('; ');
      return finish({ success: false, error: { code: 'VALIDATION_ERROR', message: `Invalid parameters for ${name} — ${reasons}.`, details } });
    }
    if (context.signal?.aborted) return finish({ success: false, error: { code: 'CANCELLED', message: `${name} was not run: the task was stopped.` } });
    try {
      const limit = timeoutMs ?? (typeof tool.timeoutMs === 'function' ? tool.timeoutMs(parsed.data) : tool.timeoutMs) ?? DEFAULT_TOOL_TIMEOUT_MS;
      const data = await runWithTimeout(tool, parsed.data, context, limit);
      return finish({ success: true, data });
    } catch (error) {
      return finish({ success: false, error: toErrorPayload(error) });
    }
  }
}

/** What a caller passes: the tool's context, with its own stop signal instead of the registry's. */
export type CallerContext = Omit<ToolContext, 'signal'> & { signal?: AbortSignal };

async function runWithTimeout(tool: Tool, params: unknown, { signal: stop, ...context }: CallerContext, timeoutMs: number): Promise<unknown> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const cutShort = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new JawadError('TIMEOUT', `${tool.name} did not finish within ${Math.round(timeoutMs / 100) / 10} s.`));
    }, timeoutMs);
    onStop = () => {
      controller.abort();
      reject(new JawadError('CANCELLED', `${tool.name} was cancelled: the task was stopped.`));
    };
    stop?.addEventListener('abort', onStop, { once: true });
  });
  try {
    return await Promise.race([tool.run(params, { ...context, signal: controller.signal }), cutShort]);
  } finally {
    clearTimeout(timer);
    if (onStop) stop?.removeEventListener('abort', onStop);
  }
}
