/**
 * `jawad research` as a user runs it: its own process, the real browser, the provider test server
 * as planner, workers and report writer, and two fixture shops on two sites.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startProviderServer, type ProviderServer } from '../support/provider-server';
import { planJson, researchModel } from '../support/research-model';
import { RUN_TIMEOUT_MS, runCli } from './support/cli-process';
import { browsersUnderTest } from './support/extension-browser';

describe.each(browsersUnderTest())('jawad research in %s', (browser) => {
  let provider: ProviderServer;
  let fixtures: FixtureServer;
  let other: FixtureServer;
  beforeAll(async () => {
    [provider, fixtures, other] = await Promise.all([startProviderServer(), startFixtureServer(), startFixtureServer('127.0.0.2')]);
  });
  afterAll(async () => {
    await Promise.all([provider?.close(), fixtures?.close(), other?.close()]);
  });
  beforeEach(() => {
    provider.reset();
    provider.setResponder(researchModel({ plans: [planJson([
      { task: 'Price at Alpine', site: `${fixtures.url}/research/alpine.html` },
      { task: 'Price at Cirrus', site: `${other.url}/research/cirrus.html` },
    ])] }));
  });

  const research = (extra: string[]) =>
    runCli(process.execPath, [
      'bin/jawad.mjs', 'research', '--browser', browser, '--provider', 'custom', '--llm-url', `${provider.url}/v1`, '--model', 'test-model',
      ...extra, 'Compare the Trail jacket at Alpine and Cirrus',
    ]);

  it('--approve-plan: prints the plan, each step, and last the report with its sources (exit 0)', async () => {
    const result = await research(['--approve-plan']);
    expect(result.code, result.stderr).toBe(0);
    const workflow = result.lines.filter((line) => line.type === 'workflow');
    expect(workflow.map((line) => line.status)).toEqual(expect.arrayContaining(['planning', 'proposed', 'running', 'done']));
    const proposed = workflow.find((line) => line.status === 'proposed') as { steps: Array<{ site: string; permissions: string[] }> };
    expect(proposed.steps.map((step) => step.site)).toEqual([`${fixtures.url}/research/alpine.html`, `${other.url}/research/cirrus.html`]);
    expect(result.lines.filter((line) => line.type === 'step').map((line) => `${line.tool}:${line.status}`)).toEqual(['read_page:done', 'read_page:done']);
    const report = result.lines.at(-1) as { type: string; status: string; text: string; sources: Array<{ n: number; url: string; quote: string }> };
    expect(report.type).toBe('report');
    expect(report.status).toBe('done');
    expect(report.sources.map((source) => [source.url, source.quote]).sort()).toEqual([
      [`${fixtures.url}/research/alpine.html`, 'Price: 149.00 €'],
      [`${other.url}/research/cirrus.html`, 'Price: 139.90 €'],
    ]);
    expect(report.text).toMatch(/149\.00 € \[\d\]/);
  }, RUN_TIMEOUT_MS);

  it('without --approve-plan: prints the plan and stops there, visiting no site (exit 1)', async () => {
    const before = fixtures.requests.length + other.requests.length;
    const result = await research([]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.lines.at(-1)).toMatchObject({ type: 'workflow', status: 'proposed' });
    expect(result.lines.some((line) => line.type === 'report' || line.type === 'step')).toBe(false);
    expect(fixtures.requests.length + other.requests.length).toBe(before);
  }, RUN_TIMEOUT_MS);
});
