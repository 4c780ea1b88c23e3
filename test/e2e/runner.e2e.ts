/**
 * The headless runner as a user runs it: `jawad run …` in its own process, launching the real
 * browser with the built extension, against the provider test server and a fixture page. The
 * scripted model takes a snapshot, clicks the form's "Remove this line" button, then reads the
 * form back with `get`; what `get` read (sent to the model as the tool result) is the page's own
 * account of whether the click happened.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { freePort } from '../support/ports';
import { startProviderServer, type ProviderServer, type RecordedRequest } from '../support/provider-server';
import { browsersUnderTest } from './support/extension-browser';
import { ROOT, RUN_TIMEOUT_MS, runCli, type CliRun } from './support/cli-process';

/** The text `get` read from the form, as the agent sent it to the model. */
function formTextSeenByModel(requests: RecordedRequest[]): string {
  const messages = requests.flatMap((request) => ((request.json as { messages?: Array<{ role: string; tool_call_id?: string; content?: unknown }> } | undefined)?.messages ?? []));
  const result = messages.find((message) => message.role === 'tool' && message.tool_call_id === 'call-get');
  if (!result) throw new Error('The model never received the result of get');
  return String(result.content);
}

function stepLines(run: CliRun) {
  return run.lines.filter((line) => line.type === 'step');
}

describe.each(browsersUnderTest())('jawad run in %s', (browser) => {
  let provider: ProviderServer;
  let fixtures: FixtureServer;

  beforeAll(async () => {
    [provider, fixtures] = await Promise.all([startProviderServer(), startFixtureServer()]);
  });
  afterAll(async () => {
    await Promise.all([provider?.close(), fixtures?.close()]);
  });
  beforeEach(() => provider.reset());

  const run = (approve: string, extra: string[] = [], page = 'form-app.html', task = 'Remove the extra line from the form') =>
    runCli(process.execPath, [
      'bin/jawad.mjs', 'run', '--browser', browser, '--url', `${fixtures.url}/${page}`,
      '--provider', 'custom', '--llm-url', `${provider.url}/v1`, '--model', 'test-model',
      '--approve', approve, ...extra, task,
    ]);

  /** The store's "Place order": a critical step. `get` reads the page's own order state back. */
  function scriptOrderTask(answer: string): void {
    provider.enqueue(
      { kind: 'openai-tool-stream', calls: [{ id: 'call-order', name: 'click', arguments: JSON.stringify({ selector: '#place-order' }) }] },
      { kind: 'openai-tool-stream', calls: [{ id: 'call-get', name: 'get', arguments: JSON.stringify({ selector: '#order-state', what: 'text' }) }] },
      { kind: 'openai-stream', chunks: [answer] },
    );
  }
  const order = (extra: string[]) => run('allow-once', extra, 'agent-store.html', 'Place the order');

  function scriptClickTask(answer: string): void {
    provider.enqueue(
      { kind: 'openai-tool-stream', calls: [{ id: 'call-snapshot', name: 'snapshot', arguments: '{}' }] },
      { kind: 'openai-tool-stream', calls: [{ id: 'call-click', name: 'click', arguments: JSON.stringify({ selector: '#remove-me' }) }] },
      { kind: 'openai-tool-stream', calls: [{ id: 'call-get', name: 'get', arguments: JSON.stringify({ selector: '#checkout', what: 'text' }) }] },
      { kind: 'openai-stream', chunks: [answer], usage: { prompt_tokens: 50, completion_tokens: 5 } },
    );
  }

  it('--approve deny: the click is asked about and denied, the page is untouched, and the answer completes (exit 0)', async () => {
    scriptClickTask('I could not remove it: you denied the click.');
    const result = await run('deny');

    expect(result.code, result.stderr).toBe(0);
    const steps = stepLines(result);
    expect(steps.map((step) => [step.tool, step.status])).toEqual([['snapshot', 'done'], ['click', 'denied'], ['get', 'done']]);
    expect(steps[0]).toMatchObject({ index: 1, level: 'read-only', promptRaised: false, decision: 'auto-approve' });
    expect(steps[1]).toMatchObject({ index: 2, params: { selector: '#remove-me' }, level: 'interact', promptRaised: true, decision: 'deny', site: expect.stringContaining('127.0.0.1') });
    expect(formTextSeenByModel(provider.requests)).toContain('Remove this line');
    expect(result.lines.at(-1)).toEqual({ type: 'answer', status: 'complete', text: 'I could not remove it: you denied the click.', usage: expect.any(Object) });
    expect(result.stderr).toContain('Step 2 click asks');
  }, RUN_TIMEOUT_MS);

  it('--approve allow-once: the click runs and the page changes', async () => {
    scriptClickTask('Removed the extra line.');
    const result = await run('allow-once');

    expect(result.code, result.stderr).toBe(0);
    const click = stepLines(result).find((step) => step.tool === 'click');
    expect(click).toMatchObject({ promptRaised: true, decision: 'allow-once', status: 'done', result: { success: true } });
    expect(formTextSeenByModel(provider.requests)).not.toContain('Remove this line');
    expect(result.lines.at(-1)).toMatchObject({ type: 'answer', status: 'complete', text: 'Removed the extra line.' });
  }, RUN_TIMEOUT_MS);

  it('--approve allow-once never approves a critical step: "Place order" is denied and recorded, the page untouched', async () => {
    scriptOrderTask('The order was not placed.');
    const result = await order([]);

    expect(result.code, result.stderr).toBe(0);
    const steps = stepLines(result);
    expect(steps.map((step) => [step.tool, step.status])).toEqual([['click', 'denied'], ['get', 'done']]);
    expect(steps[0]).toMatchObject({ params: { selector: '#place-order' }, critical: true, promptRaised: true, decision: 'deny' });
    expect(formTextSeenByModel(provider.requests)).toContain('No order yet.');
    expect(result.stderr).toMatch(/Step 1 click asks: .* → deny \(critical: pass --approve-critical to allow it\)/);
  }, RUN_TIMEOUT_MS);

  it('--approve allow-once --approve-critical: "Place order" runs, allowed once', async () => {
    scriptOrderTask('Order placed.');
    const result = await order(['--approve-critical']);

    expect(result.code, result.stderr).toBe(0);
    const click = stepLines(result).find((step) => step.tool === 'click');
    expect(click).toMatchObject({ critical: true, promptRaised: true, decision: 'allow-once', status: 'done', result: { success: true } });
    expect(formTextSeenByModel(provider.requests)).toContain('Order placed: 0 item(s).');
  }, RUN_TIMEOUT_MS);

  it('opens a page whose load the browser driver calls failed though the page loads (a real lyrics blog), and reads it', async () => {
    // In Firefox, WebDriver BiDi fails this capture's navigation ("Address rejected": its scripts
    // reach for the dead port while it loads); the page shows all the same.
    provider.enqueue(
      { kind: 'openai-tool-stream', calls: [{ id: 'call-snapshot', name: 'snapshot', arguments: '{}' }] },
      { kind: 'openai-stream', chunks: ['The song is Zhi Neng Xiang Nian Ni.'] },
    );
    const result = await run('deny', [], 'real-sites/trafilatura--chineselyrics4u.com.zhineng.html', 'Which song is this?');

    expect(result.code, result.stderr).toBe(0);
    expect(stepLines(result).map((step) => [step.tool, step.status])).toEqual([['snapshot', 'done']]);
    expect(JSON.stringify(provider.requests.at(-1)?.json)).toContain('Zhi Neng Xiang Nian Ni');
  }, RUN_TIMEOUT_MS);

  it('says so and exits 1 when the page cannot be opened at all', async () => {
    const result = await runCli(process.execPath, [
      'bin/jawad.mjs', 'run', '--browser', browser, '--url', `http://127.0.0.1:${await freePort()}/nothing-listens-here`,
      '--provider', 'custom', '--llm-url', `${provider.url}/v1`, '--model', 'test-model', '--approve', 'deny', 'Read the page',
    ]);

    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toEqual({ type: 'error', message: expect.stringMatching(/connection.?refused/i) });
    expect(provider.requests).toHaveLength(0);
  }, RUN_TIMEOUT_MS);

  it('gives up at --timeout with an error line and exit code 1', async () => {
    provider.enqueue({ kind: 'stall' });
    const result = await run('deny', ['--timeout', '4']);

    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toEqual({ type: 'error', message: expect.stringMatching(/did not finish within 4 s/) });
  }, RUN_TIMEOUT_MS);
});

describe('npx jawad', () => {
  it('runs this checkout’s own bin without asking any registry for a package named jawad', async () => {
    // An unreachable registry and offline mode: any attempt to fetch "jawad" would fail the run.
    const result = await new Promise<{ code: number | null; stdout: string }>((done, fail) => {
      const child = spawn('npx', ['jawad', '--help'], {
        cwd: ROOT,
        env: { ...process.env, npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/' },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: jawad run');
  }, 30_000);
});
