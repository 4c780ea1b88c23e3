/**
 * What a proposed tool call really is: its effective permission level (a click on a submit button
 * is a submit, whatever the tool's own level), whether it is critical (buy, pay, delete, send …),
 * and the facts the guard judges. It reads the tool's declared effects (never its name) and what
 * the page reported the action would do there (DESCRIBE with the action). Pure: the agent gathers
 * the inputs from the browser.
 */
import type { PermissionLevel, StepTarget, TargetDescription } from '../../protocol';
import { isSecretTarget } from '../../protocol/secret-fields';
import { isCriticalAction, originOf, siteOf } from '../harbor';
import type { ToolEffects } from '../tools/tool';
import type { StepFacts } from './guard';

export interface StepInput {
  tool: string;
  /** The level the tool declares in the registry. */
  level: PermissionLevel;
  effects: ToolEffects;
  params: Record<string, unknown>;
  /** The tab the task acts in right now. */
  tab: { id: number; url: string };
  /** What the page says the target is, and what the action would do to it (when the page answered). */
  target?: TargetDescription;
  /** For a tool with a `tab` effect: the URL of the tab named. */
  otherTabUrl?: string;
}

export interface StepClass {
  level: PermissionLevel;
  critical: boolean;
  /** Why it is critical or a submit, in words for the user. */
  reasons: string[];
  site: string;
  target?: StepTarget;
  /** It would read a password, card number or one-time code: always asked. */
  readsSecret: boolean;
  facts: StepFacts;
}

const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const ACTIVATION_KEY = /(^|\+)\s*(enter|numpadenter|return|space|spacebar| )\s*$/i;

function stepTarget(params: Record<string, unknown>, target: TargetDescription | undefined): StepTarget | undefined {
  const ref = asString(params.ref);
  const selector = asString(params.selector);
  if (!ref && !selector) return undefined;
  return {
    ...(ref ? { ref } : {}),
    ...(selector ? { selector } : {}),
    role: target?.role ?? 'unknown',
    name: target?.name ?? '',
    ...(target?.effect?.destination ?? target?.url ? { url: (target?.effect?.destination ?? target?.url)! } : {}),
  };
}

/**
 * Whether the step may activate or submit, when the page could not say (no answer): keys that can
 * activate, and typed text with a line break, are assumed to submit.
 */
function unknownEffect(effects: ToolEffects, params: Record<string, unknown>): { activates: boolean; submits: boolean; because?: string } {
  const keys = effects.keys ? asString(params[effects.keys]) ?? '' : '';
  if (keys && ACTIVATION_KEY.test(keys)) return { activates: true, submits: true, because: `${keys.trim()} may submit a form; Jawad could not tell.` };
  const typed = effects.typesKeys && effects.text ? asString(params[effects.text]) ?? '' : '';
  if (/[\r\n]/.test(typed)) return { activates: true, submits: true, because: 'The text holds a line break, which may submit a form; Jawad could not tell.' };
  return { activates: Boolean(effects.activates || effects.toggles), submits: false };
}

function urlStep(input: StepInput, param: string): StepClass {
  const url = asString(input.params[param]) ?? '';
  const critical = isCriticalAction('', url);
  const reasons = critical ? [`Opening ${url} looks like a purchase, payment or deletion.`] : [];
  return { level: input.level, critical, reasons, site: siteOf(url), readsSecret: false, facts: { kind: 'url', site: siteOf(url), url, origin: originOf(url) } };
}

function tabStep(input: StepInput, param: string): StepClass {
  const { params, tab } = input;
  const tabId = typeof params[param] === 'number' ? (params[param] as number) : tab.id;
  const url = tabId === tab.id ? tab.url : (input.otherTabUrl ?? '');
  return { level: input.level, critical: false, reasons: [], site: siteOf(url), readsSecret: false, facts: { kind: 'tab', site: siteOf(url), tabId } };
}

function pageStep(input: StepInput): StepClass {
  const { effects, params, tab, target } = input;
  const reasons: string[] = [];
  let level = input.level;
  const effect = target?.effect ?? (target ? { activates: Boolean(effects.activates || effects.toggles), submits: Boolean(target.submits && effects.activates) } : unknownEffect(effects, params));
  if (effect.submits && level !== 'submit') {
    level = 'submit';
    reasons.push(effect.because ?? 'It submits a form.');
  }
  let critical = false;
  if (effect.activates) {
    const name = target?.name ?? '';
    const leadsTo = target?.effect?.destination ?? target?.url ?? '';
    // A link is judged as opening its address would be (open_url): a state-changing URL is critical.
    const followsLink = Boolean(target?.effect?.destination && !effect.submits);
    critical = isCriticalAction(name, leadsTo) || isCriticalAction(name, target?.documentUrl ?? tab.url) || (followsLink && isCriticalAction('', leadsTo));
    if (critical) reasons.push(`“${name || 'This action'}” looks like a purchase, payment, deletion, subscription or message.`);
  }
  if (effects.acceptsDialog && params[effects.acceptsDialog] === true) {
    critical = true;
    reasons.push('It accepts the page’s own confirmation box, which a page shows before something it cannot undo.');
  }
  const readsSecret = Boolean(effects.readsValue && target && isSecretTarget(target) && asString(params.what) === 'value');
  if (readsSecret) {
    // A password or card number in the model's hands is as serious as a payment: always asked, never granted.
    critical = true;
    reasons.push(`It reads the value of a secret field (${target?.autocomplete ?? target?.inputType ?? 'secret'} “${target?.name ?? ''}”).`);
  }
  const text = effects.text ? asString(params[effects.text]) : undefined;
  // A ref inside a frame acts on the frame's site (a third-party widget), not the tab's.
  const site = siteOf(target?.documentUrl ?? tab.url);
  // Following a link is opening its URL: the same scope and page-data checks as open_url.
  const destination = effect.activates ? target?.effect?.destination : undefined;
  const described = stepTarget(params, target);
  return {
    level,
    critical,
    reasons,
    site,
    readsSecret,
    ...(described ? { target: described } : {}),
    facts: {
      kind: 'page',
      site,
      tabId: tab.id,
      ...(text === undefined ? {} : { text, ...(effects.target === 'select' ? { textFromPage: true } : {}) }),
      ...(destination ? { url: destination, urlFromPage: true } : {}),
      origin: originOf(destination ?? target?.documentUrl ?? tab.url),
    },
  };
}

export function classifyStep(input: StepInput): StepClass {
  const { effects } = input;
  if (effects.url) return urlStep(input, effects.url);
  if (effects.tab) return tabStep(input, effects.tab);
  if (effects.tabList) return { level: input.level, critical: false, reasons: [], site: '', readsSecret: false, facts: { kind: 'none', site: '' } };
  return pageStep(input);
}
