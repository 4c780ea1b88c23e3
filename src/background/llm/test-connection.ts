import type { TestResultPayload } from '../../protocol';
import { LlmError } from './errors';
import { listModels } from './models';
import { streamChat } from './router';
import type { LlmConfig } from './types';

const FAILS_TEST: ReadonlySet<string> = new Set(['auth', 'no-key', 'network', 'origin-refused', 'timeout']);

function failure(error: unknown, models?: string[]): TestResultPayload {
  const message = error instanceof Error ? error.message : String(error);
  return { success: false, error: message, ...(models ? { models } : {}) };
}

/**
 * Checks the settings for real: lists the models (where the server can), then streams the first
 * event of a tiny chat, which proves the key, the model name and streaming all work.
 */
export async function testConnection(config: LlmConfig): Promise<TestResultPayload> {
  const started = performance.now();
  let models: string[] | undefined;
  try {
    models = await listModels(config);
  } catch (error) {
    if (error instanceof LlmError && FAILS_TEST.has(error.kind)) return failure(error);
    // Other listing failures are not fatal: plenty of servers have no usable /models.
  }
  if (models && !models.includes(config.model)) {
    const shown = models.slice(0, 8).join(', ') + (models.length > 8 ? ', …' : '');
    return failure(new Error(`No model named “${config.model}” on this server. Available: ${shown}`), models);
  }
  try {
    const request = { messages: [{ role: 'user' as const, content: 'Reply with the single word OK.' }] };
    for await (const event of streamChat({ ...config, maxTokens: 16 }, request)) {
      if (event.type === 'text' || event.type === 'done') break;
    }
  } catch (error) {
    return failure(error, models);
  }
  return { success: true, latencyMs: Math.round(performance.now() - started), ...(models ? { models } : {}) };
}
