import type { ConnectionCheck, TestResultPayload } from '../../protocol';
import { LlmError } from './errors';
import { findModel, listModels, type ModelMatch } from './models';
import type { RouterRequest, StreamChat } from './router';
import type { LlmConfig, ToolDefinition } from './types';

/** A harmless tool, so the test learns whether the server takes native tool definitions. */
const PROBE_TOOL: ToolDefinition = {
  type: 'function',
  function: { name: 'noop', description: 'Does nothing. Do not call it.', parameters: { type: 'object', properties: {} } },
};

/** Failures that say nothing works: the test stops there. */
const UNREACHABLE: ReadonlySet<string> = new Set(['network', 'origin-refused', 'timeout']);

type Checks = Map<ConnectionCheck['name'], ConnectionCheck>;

function check(checks: Checks, name: ConnectionCheck['name'], status: ConnectionCheck['status'], detail: string): void {
  checks.set(name, { name, status, detail });
}

function modelLine(config: LlmConfig, match: ModelMatch | undefined, count: number | undefined): string {
  if (!match) return `${config.model} (the server has no model list; the chat below tried it)`;
  if (match.how === 'exact') return `${config.model} is listed (${count} models)`;
  if (match.how === 'tag' || match.how === 'file') return `${config.model} is listed as ${match.id}`;
  if (match.how === 'alias') return `${config.model} resolves to ${match.id}`;
  return `${config.model} is not in the server's list, but answered`;
}

function shortList(models: string[]): string {
  return models.slice(0, 8).join(', ') + (models.length > 8 ? ', …' : '');
}

/** The report's verdict: passed unless a check failed; the first failure is the error. */
function report(checks: Checks, started: number, models: string[] | undefined): TestResultPayload {
  const lines = [...checks.values()];
  const failed = lines.find((line) => line.status === 'fail');
  return {
    success: !failed,
    checks: lines,
    ...(failed ? { error: failed.detail } : { latencyMs: Math.round(performance.now() - started) }),
    ...(models ? { models } : {}),
  };
}

/**
 * Checks the settings for real and says what it checked, one line each: the server answers, the
 * key is accepted, the model exists (tolerating tags, file names and aliases), a tiny chat streams
 * to its end, and whether native tool calls work. The model check fails only when the model
 * really cannot answer: a name missing from the list is still tried.
 */
export function createConnectionTest(stream: StreamChat) {
  return async function testConnection(config: LlmConfig, requestId: string): Promise<TestResultPayload> {
    const started = performance.now();
    const checks: Checks = new Map();
    let models: string[] | undefined;
    try {
      models = await listModels(config);
      check(checks, 'reachable', 'ok', `${config.baseUrl} answers`);
    } catch (error) {
      if (error instanceof LlmError && UNREACHABLE.has(error.kind)) {
        check(checks, 'reachable', 'fail', error.message);
        return report(checks, started, undefined);
      }
      if (error instanceof LlmError && error.kind === 'auth') {
        check(checks, 'reachable', 'ok', `${config.baseUrl} answers`);
        check(checks, 'key', 'fail', error.message);
        return report(checks, started, undefined);
      }
      // Other listing failures are not fatal: plenty of servers have no usable /models.
    }
    const match = models ? await findModel(config, models) : undefined;
    const request: RouterRequest = {
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      tools: [PROBE_TOOL],
      usage: { requestId, kind: 'test-connection' },
    };
    try {
      let thought = false;
      let toolMode: string | undefined;
      for await (const event of stream({ ...config, maxTokens: 16 }, request)) {
        if (event.type === 'reasoning') thought = true;
        if (event.type === 'done') toolMode = event.toolMode;
      }
      check(checks, 'reachable', 'ok', `${config.baseUrl} answers`);
      check(checks, 'key', 'ok', config.apiKey ? 'accepted' : 'none needed');
      check(checks, 'model', match?.how === 'unlisted' ? 'warn' : 'ok', modelLine(config, match, models?.length));
      check(checks, 'streaming', 'ok', `a reply streamed to its end${thought ? ', with its thinking apart' : ''}`);
      check(checks, 'tools', toolMode === 'native' ? 'ok' : 'warn', toolMode === 'native' ? 'native tool calls accepted' : 'native tools refused: the agent will use Jawad’s XML tool format');
    } catch (error) {
      failedChat(checks, config, error, models);
    }
    return report(checks, started, models);
  };
}

function failedChat(checks: Checks, config: LlmConfig, error: unknown, models: string[] | undefined): void {
  const message = error instanceof Error ? error.message : String(error);
  const kind = error instanceof LlmError ? error.kind : undefined;
  check(checks, 'reachable', kind && UNREACHABLE.has(kind) ? 'fail' : 'ok', kind && UNREACHABLE.has(kind) ? message : `${config.baseUrl} answers`);
  if (kind && UNREACHABLE.has(kind)) return;
  if (kind === 'auth' || kind === 'no-key') return check(checks, 'key', 'fail', message);
  check(checks, 'key', 'ok', config.apiKey ? 'accepted' : 'none needed');
  if (kind === 'model-not-found') {
    return check(checks, 'model', 'fail', `No model named “${config.model}” on this server.${models ? ` Available: ${shortList(models)}` : ''}`);
  }
  check(checks, 'streaming', 'fail', message);
}
