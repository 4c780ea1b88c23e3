/**
 * What a proposed tool call really is: its effective permission level (a click on a submit button
 * is a submit, whatever the tool's own level), whether it is critical (buy, pay, delete, send …),
 * and the facts the guard judges. Pure: the agent gathers the inputs from the browser.
 */
import type { PermissionLevel, StepTarget, TargetDescription } from '../../protocol';
import { isCriticalAction, siteOf } from '../harbor';
import type { StepFacts } from './guard';

export interface StepInput {
  tool: string;
  /** The level the tool declares in the registry. */
  level: PermissionLevel;
  params: Record<string, unknown>;
  /** The tab the task acts in right now. */
  tab: { id: number; url: string };
  /** What the page says the target element is (when the tool has one and the page answered). */
  target?: TargetDescription;
  /** For switch_tab / close_tab: the URL of the tab named. */
  otherTabUrl?: string;
}

export interface StepClass {
  level: PermissionLevel;
  critical: boolean;
  /** Why it is critical or a submit, in words for the user. */
  reasons: string[];
  site: string;
  target?: StepTarget;
  facts: StepFacts;
}

const OPENS_URL = new Set(['open_url', 'new_tab']);
const USES_OTHER_TAB = new Set(['switch_tab', 'close_tab']);
const TOUCHES_NO_PAGE = new Set(['list_tabs']);
const ACTIVATES = new Set(['click', 'double_click']);
/** Parameters that carry text into the page, per tool. */
const TEXT_PARAM: Record<string, string> = { fill: 'text', type_text: 'text', select_option: 'option' };

const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function pressesEnter(params: Record<string, unknown>): boolean {
  return /(^|\+)(enter|numpadenter)$/i.test(asString(params.keys) ?? '');
}

/** Enter in a text field of a form submits it (implicit submission); with no target, assume it might. */
function enterSubmits(target: TargetDescription | undefined): boolean {
  if (!target) return true;
  return target.url !== undefined && (target.tag === 'input' || target.tag === 'button' || target.submits);
}

function stepTarget(params: Record<string, unknown>, target: TargetDescription | undefined): StepTarget | undefined {
  const ref = asString(params.ref);
  const selector = asString(params.selector);
  if (!ref && !selector) return undefined;
  return {
    ...(ref ? { ref } : {}),
    ...(selector ? { selector } : {}),
    role: target?.role ?? 'unknown',
    name: target?.name ?? '',
    ...(target?.url ? { url: target.url } : {}),
  };
}

export function classifyStep(input: StepInput): StepClass {
  const { tool, params, tab, target } = input;
  const reasons: string[] = [];
  let level = input.level;
  let critical = false;

  if (OPENS_URL.has(tool)) {
    const url = asString(params.url) ?? '';
    critical = isCriticalAction('', url);
    if (critical) reasons.push(`Opening ${url} looks like a purchase, payment or deletion.`);
    return { level, critical, reasons, site: siteOf(url), facts: { kind: 'url', site: siteOf(url), url } };
  }
  if (USES_OTHER_TAB.has(tool)) {
    const tabId = typeof params.tabId === 'number' ? params.tabId : tab.id;
    const url = tabId === tab.id ? tab.url : (input.otherTabUrl ?? '');
    return { level, critical, reasons, site: siteOf(url), facts: { kind: 'tab', site: siteOf(url), tabId } };
  }
  if (TOUCHES_NO_PAGE.has(tool)) return { level, critical, reasons, site: '', facts: { kind: 'none', site: '' } };

  const activates = ACTIVATES.has(tool) || (tool === 'press_key' && pressesEnter(params));
  if (activates) {
    const submits = tool === 'press_key' ? enterSubmits(target) : Boolean(target?.submits);
    if (submits && level !== 'submit') {
      level = 'submit';
      reasons.push('It submits a form.');
    }
    const name = target?.name ?? '';
    critical = isCriticalAction(name, target?.url ?? '') || isCriticalAction(name, target?.documentUrl ?? tab.url);
    if (critical) reasons.push(`“${name || 'This action'}” looks like a purchase, payment, deletion or message.`);
  }
  const textParam = TEXT_PARAM[tool];
  const text = textParam ? asString(params[textParam]) : undefined;
  // A ref inside a frame acts on the frame's site (a third-party widget), not the tab's.
  const site = siteOf(target?.documentUrl ?? tab.url);
  const described = stepTarget(params, target);
  return {
    level,
    critical,
    reasons,
    site,
    ...(described ? { target: described } : {}),
    facts: { kind: 'page', site, tabId: tab.id, ...(text === undefined ? {} : { text }) },
  };
}
