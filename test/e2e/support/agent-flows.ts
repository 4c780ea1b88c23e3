/** What a user does with the agent in the sidebar: start a task, read the prompt, decide, read the log. */
import { backToChat, markAnswersSeen, sendMessage } from './flows';
import type { Sidebar } from './extension-browser';

export interface ShownPrompt {
  stepId: string;
  level: string;
  critical: string;
  role: string | null;
  title: string;
  text: string;
  focusInside: boolean;
  buttons: Array<{ id: string; tabbable: boolean; ariaDisabled: boolean }>;
}

export interface ShownStep {
  status: string;
  tool: string;
  decision: string;
  text: string;
}

export function agentSwitchOn(sidebar: Sidebar): Promise<boolean> {
  return sidebar.eval((win) => (win.document.querySelector('[data-testid=agent-toggle]') as HTMLInputElement | null)?.checked ?? false, null);
}

/** A new chat with "Act on page" on, and the task sent. */
export async function startAgentTask(sidebar: Sidebar, task: string): Promise<void> {
  await backToChat(sidebar);
  await sidebar.click('.top-bar nav button', 'New chat');
  await sidebar.waitFor((win) => win.document.querySelector('[data-testid=agent-toggle]'), null, 'the agent switch');
  if (!(await agentSwitchOn(sidebar))) await sidebar.click('[data-testid=agent-toggle]');
  await markAnswersSeen(sidebar);
  await sendMessage(sidebar, task);
}

/** Waits for the permission prompt — a new one, when `after` names the step asked about before. */
export async function waitForPrompt(sidebar: Sidebar, after = ''): Promise<ShownPrompt> {
  const shown = await sidebar.waitFor(
    (win, previous) => {
      const prompt = win.document.querySelector<HTMLElement>('[data-testid=permission-prompt]');
      if (!prompt || prompt.dataset.stepId === previous) return null;
      return {
        stepId: prompt.dataset.stepId ?? '',
        level: prompt.dataset.level ?? '',
        critical: prompt.dataset.critical ?? '',
        role: prompt.getAttribute('role'),
        title: win.document.getElementById(prompt.getAttribute('aria-labelledby') ?? '')?.innerText ?? '',
        text: prompt.innerText,
        focusInside: prompt.contains(win.document.activeElement),
        buttons: Array.from(prompt.querySelectorAll<HTMLButtonElement>('button[data-testid^=decision-]')).map((button) => ({
          id: button.dataset.testid ?? '',
          tabbable: !button.disabled && button.tabIndex >= 0,
          ariaDisabled: button.getAttribute('aria-disabled') === 'true',
        })),
      };
    },
    after,
    'the permission prompt',
    20_000,
  );
  return shown!;
}

/**
 * Watches for the next permission prompt and notes whether focus was inside it the moment it was
 * added: a mutation observer runs right after the sidebar's render, before any later frame could move
 * focus, so a prompt that takes focus only after a frame is caught every time, not by chance.
 */
export function watchPromptFocus(sidebar: Sidebar): Promise<void> {
  return sidebar.eval((win) => {
    const state = win as unknown as { __promptFocus?: boolean };
    delete state.__promptFocus;
    const observer = new win.MutationObserver(() => {
      const prompt = win.document.querySelector('[data-testid=permission-prompt]');
      if (!prompt) return;
      state.__promptFocus = prompt.contains(win.document.activeElement);
      observer.disconnect();
    });
    observer.observe(win.document.body, { childList: true, subtree: true });
  }, null);
}

/** What watchPromptFocus noted: whether the prompt had focus when it appeared. */
export function promptHadFocusOnAppear(sidebar: Sidebar): Promise<boolean | undefined> {
  return sidebar.eval((win) => (win as unknown as { __promptFocus?: boolean }).__promptFocus, null);
}

/** Whether the prompt's "Allow on this site" is switched off (critical steps, submits). */
export const siteGrantOffered = (prompt: ShownPrompt): boolean => !prompt.buttons.find((button) => button.id === 'decision-allow-site')?.ariaDisabled;

export async function decide(sidebar: Sidebar, decision: 'allow-once' | 'allow-site' | 'allow-session' | 'deny' | 'deny-all'): Promise<void> {
  await sidebar.click(`[data-testid=permission-prompt] [data-testid=decision-${decision}]`);
}

/** The action log under the last answer, as shown. */
export function shownSteps(sidebar: Sidebar): Promise<ShownStep[]> {
  return sidebar.eval(
    (win) =>
      Array.from(win.document.querySelectorAll<HTMLElement>('article.message.assistant:last-of-type [data-testid=action-step]')).map((item) => ({
        status: item.dataset.status ?? '',
        tool: item.dataset.tool ?? '',
        decision: item.dataset.decision ?? '',
        text: item.innerText,
      })),
    null,
  );
}

/** The log reduced to what most tests compare: tool, status, decision. */
export async function stepSummary(sidebar: Sidebar): Promise<string[]> {
  return (await shownSteps(sidebar)).map((step) => `${step.tool}:${step.status}:${step.decision}`);
}
