import { describe, expect, it } from 'vitest';
import { parseCommand, USAGE, UsageError } from '../../cli/args';

const PAGE = 'http://127.0.0.1:8080/form-app.html';

function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const command = parseCommand(argv, env);
  if (command.kind !== 'run') throw new Error(`expected a run command, got ${command.kind}`);
  return command.options;
}

describe('parseCommand', () => {
  it('reads a full run command line', () => {
    const options = run(['run', '--browser', 'firefox', '--url', PAGE, '--llm-url', 'http://127.0.0.1:9/v1', '--model', 'm1', '--provider', 'custom',
      '--api-key', 'sk-1', '--approve', 'allow-once', '--headed', '--timeout', '30', 'Click', 'Save']);
    expect(options).toEqual({
      browser: 'firefox',
      url: PAGE,
      settings: { provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm1', apiKey: 'sk-1', timeoutSeconds: 60 },
      approve: 'allow-once',
      approveCritical: false,
      timeoutMs: 30_000,
      headed: true,
      task: 'Click Save',
    });
  });

  it('defaults to Chromium, headless, OpenAI and denying every prompt', () => {
    const options = run(['run', '--url', PAGE, 'do it']);
    expect(options).toMatchObject({ browser: 'chromium', headed: false, approve: 'deny', approveCritical: false, timeoutMs: 120_000 });
    expect(options.settings).toEqual({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', timeoutSeconds: 60 });
  });

  it('takes the key from JAWAD_API_KEY when --api-key is absent', () => {
    expect(run(['run', '--url', PAGE, 'task'], { JAWAD_API_KEY: 'sk-env' }).settings.apiKey).toBe('sk-env');
    expect(run(['run', '--url', PAGE, '--api-key', 'sk-flag', 'task'], { JAWAD_API_KEY: 'sk-env' }).settings.apiKey).toBe('sk-flag');
  });

  it('allows critical steps only when --approve-critical is given explicitly, next to an allow', () => {
    for (const approve of ['allow-once', 'allow-site', 'allow-session']) {
      expect(run(['run', '--url', PAGE, '--approve', approve, 'task']).approveCritical).toBe(false);
      expect(run(['run', '--url', PAGE, '--approve', approve, '--approve-critical', 'task'])).toMatchObject({ approve, approveCritical: true });
    }
  });

  it('says in the help that critical steps are denied without --approve-critical', () => {
    expect(USAGE).toMatch(/--approve DECISION .*allow-session/s);
    expect(USAGE).toMatch(/Critical steps[\s\S]*denied[\s\S]*unless --approve-critical/);
    expect(USAGE).toContain('--approve-critical');
  });

  it('answers --help and -h with the help, whatever else is there', () => {
    expect(parseCommand(['--help'])).toEqual({ kind: 'help' });
    expect(parseCommand(['run', '-h'])).toEqual({ kind: 'help' });
  });

  it.each([
    [[], /jawad run/],
    [['walk', '--url', PAGE, 'task'], /Unknown command "walk"/],
    [['run', '--url', PAGE], /Give the task/],
    [['run', 'task'], /--url is required/],
    [['run', '--url', 'not a url', 'task'], /is not a URL/],
    [['run', '--url', PAGE, '--browser', 'safari', 'task'], /--browser must be one of chromium, firefox/],
    [['run', '--url', PAGE, '--approve', 'yes', 'task'], /--approve must be one of deny, allow-once, allow-site, allow-session/],
    [['run', '--url', PAGE, '--approve-critical', 'task'], /--approve-critical only widens an allow/],
    [['run', '--url', PAGE, '--approve', 'deny', '--approve-critical', 'task'], /--approve-critical only widens an allow/],
    [['run', '--url', PAGE, '--provider', 'acme', 'task'], /--provider must be one of/],
    [['run', '--url', PAGE, '--llm-url', 'ftp://x', 'task'], /--llm-url must be a full http/],
    [['run', '--url', PAGE, '--provider', 'custom', 'task'], /--model is required with --provider custom/],
    [['run', '--url', PAGE, '--timeout', '0', 'task'], /--timeout is a number of seconds above 0/],
    [['run', '--url', PAGE, '--colour', 'task'], /Unknown option '--colour'/],
  ])('refuses %j with a usage error that says what is wrong', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});
