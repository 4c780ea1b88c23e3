/** `jawad run`: one agent task in a real browser, its action log on stdout as JSON lines. */
import type { Page } from 'puppeteer-core';
import type { Browser as ExtensionApi } from 'webextension-polyfill';
import type { AgentStep, Decision, StoredMessage } from '../src/protocol';
import { runAgentTask, saveProviderSettings } from './agent-task';
import type { RunOptions } from './args';
import { answerLine, errorLine, StepPrinter } from './json-lines';
import { ensureBuild, launchJawad, type JawadBrowser } from './launch';

export interface Output {
  /** stdout: the JSON lines. */
  line: (text: string) => void;
  /** stderr: progress for a person watching. */
  progress: (text: string) => void;
}

export const EXIT_COMPLETE = 0;
export const EXIT_NOT_COMPLETE = 1;
export const EXIT_USAGE = 2;

/**
 * The runner's answer to one permission prompt: --approve for every step, except that a critical
 * step (buy, pay, delete, send…) is denied unless --approve-critical was passed; then it is allowed
 * once, the only decision a critical step takes.
 */
export function runnerDecision(step: Pick<AgentStep, 'critical'>, options: Pick<RunOptions, 'approve' | 'approveCritical'>): Decision {
  if (!step.critical) return options.approve;
  return options.approveCritical && options.approve !== 'deny' ? 'allow-once' : 'deny';
}

function promptLine(step: AgentStep, decision: Decision): string {
  const why = step.reasons.join('; ') || 'permission';
  const held = step.critical && decision === 'deny' ? ' (critical: pass --approve-critical to allow it)' : '';
  return `Step ${step.index} ${step.tool} asks: ${why} → ${decision}${held}`;
}

/** 0 only for an answer the model finished; stopped, interrupted and failed answers are 1. */
export function exitCodeFor(answer: StoredMessage): number {
  return answer.status === 'complete' ? EXIT_COMPLETE : EXIT_NOT_COMPLETE;
}

export async function runCommand(options: RunOptions, output: Output): Promise<number> {
  let jawad: JawadBrowser | undefined;
  const closeOnSignal = () => void jawad?.close().finally(() => process.exit(130));
  process.once('SIGINT', closeOnSignal);
  process.once('SIGTERM', closeOnSignal);
  try {
    await ensureBuild(options.browser, output.progress);
    output.progress(`Starting ${options.browser}${options.headed ? '' : ' (headless)'} with Jawad…`);
    jawad = await launchJawad(options.browser, { headed: options.headed });
    return await runTask(jawad, options, output);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.progress(`jawad: ${message}`);
    output.line(errorLine(message));
    return EXIT_NOT_COMPLETE;
  } finally {
    process.off('SIGINT', closeOnSignal);
    process.off('SIGTERM', closeOnSignal);
    await jawad?.close().catch(() => undefined);
  }
}

async function runTask(jawad: JawadBrowser, options: RunOptions, output: Output): Promise<number> {
  const page = await jawad.openTab(options.url);
  const windowId = await activateTab(jawad.host, page);
  output.progress(`Opened ${page.url()}`);
  await saveProviderSettings(jawad.host, options.settings);
  output.progress(`Task for ${options.settings.model} at ${options.settings.baseUrl}: ${options.task}`);
  const printer = new StepPrinter(output.line);
  const outcome = await runAgentTask(jawad.host, {
    task: options.task,
    timeoutMs: options.timeoutMs,
    ...(windowId === undefined ? {} : { windowId }),
    approve: (step) => {
      const decision = runnerDecision(step, options);
      output.progress(promptLine(step, decision));
      return decision;
    },
    onStep: (step) => {
      printer.onStep(step);
      reportStep(step, output);
    },
  });
  printer.flush(outcome.steps);
  output.line(answerLine(outcome.answer));
  output.progress(`Answer (${outcome.answer.status}): ${outcome.answer.content}`);
  return exitCodeFor(outcome.answer);
}

function reportStep(step: AgentStep, output: Output): void {
  if (step.status === 'asking' || step.status === 'running') return;
  const detail = step.result?.summary ?? step.result?.error?.message ?? '';
  output.progress(`Step ${step.index} ${step.tool}: ${step.status}${detail ? ` — ${detail}` : ''}`);
}

/**
 * Makes the task's tab the active one from the extension's side (puppeteer's bringToFront does not
 * reach the tabs API in every browser) and returns its window, so the agent acts on that tab.
 */
async function activateTab(host: Page, page: Page): Promise<number | undefined> {
  const windowId = await host.evaluate(async (url) => {
    const api = (globalThis as unknown as { browser: ExtensionApi }).browser;
    const tab = (await api.tabs.query({})).find((candidate) => candidate.url === url);
    if (tab?.id === undefined) return null;
    await api.tabs.update(tab.id, { active: true });
    return tab.windowId ?? null;
  }, page.url());
  return windowId ?? undefined;
}
