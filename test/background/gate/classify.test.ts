import { describe, expect, it, vi } from 'vitest';

vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../../src/background/page-scripts', () => ({}));
import { classifyStep, type StepInput } from '../../../src/background/gate/classify';
import { TOOLS } from '../../../src/background/tools';

const TAB = { id: 4, url: 'https://shop.example.com/products/jacket' };
const EFFECTS = Object.fromEntries(TOOLS.map((tool) => [tool.name, tool.effects]));
const input = (extra: Partial<StepInput>): StepInput => ({ tool: 'click', level: 'interact', params: { ref: 'e1' }, tab: TAB, ...extra, effects: extra.effects ?? EFFECTS[extra.tool ?? 'click']! });

describe('classifyStep', () => {
  it('keeps a plain click at the tool’s level, on the tab’s site, with the target the page described', () => {
    const step = classifyStep(input({ target: { role: 'button', name: 'Add to cart', tag: 'button', submits: false } }));
    expect(step).toMatchObject({ level: 'interact', critical: false, site: 'https://example.com', reasons: [] });
    expect(step.target).toEqual({ ref: 'e1', role: 'button', name: 'Add to cart' });
    expect(step.facts).toEqual({ kind: 'page', site: 'https://example.com', tabId: 4, origin: 'https://shop.example.com' });
  });

  it('raises a click on a submit button to submit, and a purchase to critical', () => {
    const search = classifyStep(input({ target: { role: 'button', name: 'Search', tag: 'button', submits: true, url: 'https://shop.example.com/search' } }));
    expect(search).toMatchObject({ level: 'submit', critical: false });
    expect(search.reasons).toEqual(['It submits a form.']);
    const order = classifyStep(input({ target: { role: 'button', name: 'Place order', tag: 'button', submits: true, url: 'https://shop.example.com/orders' } }));
    expect(order).toMatchObject({ level: 'submit', critical: true });
    // A harmless name on a checkout page is still critical: the page chooses the words, not the stakes.
    const confirm = classifyStep(input({ tab: { id: 4, url: 'https://shop.example.com/checkout' }, target: { role: 'button', name: 'Confirm', tag: 'div', submits: false } }));
    expect(confirm.critical).toBe(true);
  });

  it('takes the page’s word for what keys and typed line breaks would do', () => {
    const field = { role: 'textbox', name: 'Email', tag: 'input', submits: false, url: 'https://shop.example.com/newsletter', inputType: 'email' };
    const submits = { activates: true, submits: true, because: 'Enter in a form field submits the form.', destination: 'https://shop.example.com/newsletter' };
    const enter = classifyStep(input({ tool: 'press_key', params: { ref: 'e2', keys: ' Control + Enter ' }, target: { ...field, effect: submits } }));
    expect(enter).toMatchObject({ level: 'submit', reasons: ['Enter in a form field submits the form.'] });
    const tab = classifyStep(input({ tool: 'press_key', params: { ref: 'e2', keys: 'Tab' }, target: { ...field, effect: { activates: false, submits: false } } }));
    expect(tab.level).toBe('interact');
    const typed = classifyStep(input({ tool: 'type_text', params: { ref: 'e2', text: 'hello\n' }, target: { ...field, effect: { ...submits, because: 'The text ends a line with Enter.' } } }));
    expect(typed.level).toBe('submit');
  });

  it('assumes a submit when the page could not say what activation keys or a typed line break would do', () => {
    for (const keys of ['Enter', ' enter ', 'Control+Enter', 'Shift + NumpadEnter', 'Space', ' ']) {
      expect(classifyStep(input({ tool: 'press_key', params: { keys } })).level, keys).toBe('submit');
    }
    expect(classifyStep(input({ tool: 'press_key', params: { keys: 'ArrowDown' } })).level).toBe('interact');
    expect(classifyStep(input({ tool: 'type_text', params: { ref: 'e2', text: 'hi\r\n' } })).level).toBe('submit');
    expect(classifyStep(input({ tool: 'type_text', params: { ref: 'e2', text: 'hi' } })).level).toBe('interact');
  });

  it('makes a toggle with a critical name critical', () => {
    const toggle = { role: 'button', name: 'Subscribe to Premium — £9.99/month', tag: 'div', submits: false, effect: { activates: true, submits: false } };
    expect(classifyStep(input({ tool: 'check', params: { ref: 'e5' }, target: toggle })).critical).toBe(true);
    expect(classifyStep(input({ tool: 'check', params: { ref: 'e5' }, target: { ...toggle, name: 'Remember me' } })).critical).toBe(false);
  });

  it('judges a link by where it leads: a state-changing address is critical, and the destination is checked like open_url', () => {
    const link = (href: string) => ({ role: 'link', name: 'Click here', tag: 'a', submits: false, url: href, effect: { activates: true, submits: false, destination: href } });
    const remove = classifyStep(input({ target: link('https://shop.example.com/account/delete?confirm=1') }));
    expect(remove.critical).toBe(true);
    const away = classifyStep(input({ target: link('https://evil.test/collect?d=1') }));
    expect(away.facts).toMatchObject({ kind: 'page', url: 'https://evil.test/collect?d=1', urlFromPage: true, origin: 'https://evil.test' });
  });

  it('flags reading the value of a secret field', () => {
    const password = { role: 'textbox', name: 'Password', tag: 'input', submits: false, inputType: 'password', autocomplete: 'current-password' };
    expect(classifyStep(input({ tool: 'get', level: 'read-only', params: { ref: 'e3', what: 'value' }, target: password })).readsSecret).toBe(true);
    expect(classifyStep(input({ tool: 'get', level: 'read-only', params: { ref: 'e3', what: 'attribute', name: 'id' }, target: password })).readsSecret).toBe(false);
  });

  it('names the text that would go into the page', () => {
    expect(classifyStep(input({ tool: 'fill', params: { ref: 'e3', text: 'Ada' } })).facts.text).toBe('Ada');
    expect(classifyStep(input({ tool: 'select_option', params: { ref: 'e3', option: 'M' } })).facts).toMatchObject({ text: 'M', textFromPage: true });
  });

  it('judges a URL by where it goes, not by the tab it is opened from', () => {
    const step = classifyStep(input({ tool: 'open_url', level: 'navigate', params: { url: 'https://evil.test/?q=1' } }));
    expect(step).toMatchObject({ site: 'https://evil.test', facts: { kind: 'url', url: 'https://evil.test/?q=1' } });
    expect(classifyStep(input({ tool: 'new_tab', level: 'navigate', params: { url: 'https://shop.example.com/checkout/pay' } })).critical).toBe(true);
  });

  it('judges switch_tab and close_tab by the tab named', () => {
    const step = classifyStep(input({ tool: 'switch_tab', level: 'navigate', params: { tabId: 9 }, otherTabUrl: 'https://mail.example.org/inbox' }));
    expect(step).toMatchObject({ site: 'https://example.org', facts: { kind: 'tab', tabId: 9 } });
    expect(classifyStep(input({ tool: 'list_tabs', level: 'read-only', params: {} })).facts.kind).toBe('none');
  });
});

describe('effect declarations', () => {
  /** A scenario per effect in which that declaration decides the outcome. */
  const SCENARIOS: Record<string, (tool: string) => Partial<StepInput>> = {
    target: () => ({ params: { ref: 'e1' }, target: { role: 'button', name: 'Go', tag: 'button', submits: false } }),
    text: () => ({ params: { ref: 'e1', text: 'Ada', option: 'Ada', acceptDialog: true, dialogText: 'Ada' } }),
    keys: () => ({ params: { keys: 'Enter' } }),
    url: () => ({ params: { url: 'https://other.test/x' } }),
    tab: () => ({ params: { tabId: 9 }, otherTabUrl: 'https://mail.example.org/' }),
    activates: () => ({ params: { ref: 'e1' }, target: { role: 'button', name: 'Delete account', tag: 'button', submits: false } }),
    toggles: () => ({ params: { ref: 'e1' }, target: { role: 'checkbox', name: 'Subscribe', tag: 'input', submits: false } }),
    typesKeys: () => ({ params: { ref: 'e1', text: 'hi\n' } }),
    readsValue: () => ({ params: { ref: 'e1', what: 'value' }, target: { role: 'textbox', name: 'Password', tag: 'input', submits: false, inputType: 'password' } }),
    tabList: () => ({ params: {} }),
    acceptsDialog: () => ({ params: { ref: 'e1', acceptDialog: true }, target: { role: 'button', name: 'Remove', tag: 'button', submits: false } }),
  };
  /**
   * Read by the step gate, not the classifier: `target` (whether the page is asked at all: without
   * it the agent E2E's submit and critical escalations fail) and `opensTab` (the new tab joins the task).
   */
  const JUDGED_ELSEWHERE = new Set(['opensTab', 'target']);

  for (const tool of TOOLS) {
    for (const effect of Object.keys(tool.effects).filter((name) => !JUDGED_ELSEWHERE.has(name))) {
      it(`${tool.name}: removing its “${effect}” declaration changes how it is judged`, () => {
        const scenario = { tool: tool.name, level: tool.level, ...SCENARIOS[effect]!(tool.name) };
        const declared = classifyStep(input({ ...scenario, effects: tool.effects }));
        const { [effect as keyof typeof tool.effects]: _removed, ...without } = tool.effects;
        const undeclared = classifyStep(input({ ...scenario, effects: without }));
        expect(undeclared).not.toEqual(declared);
      });
    }
  }
});

describe('a click that accepts the page’s own confirmation box', () => {
  it('is critical, whatever the button is called, and says why; without the flag it is an ordinary click', () => {
    const remove = { role: 'button', name: 'Remove', tag: 'button', submits: false };
    const accepting = classifyStep(input({ params: { ref: 'e1', acceptDialog: true }, target: remove }));
    expect(accepting.critical).toBe(true);
    expect(accepting.reasons).toContain('It accepts the page’s own confirmation box, which a page shows before something it cannot undo.');
    expect(classifyStep(input({ params: { ref: 'e1' }, target: remove })).critical).toBe(false);
  });

  it('names the answer it gives a prompt box as text that goes into the page', () => {
    const rename = { role: 'button', name: 'Rename', tag: 'button', submits: false };
    expect(classifyStep(input({ params: { ref: 'e1', acceptDialog: true, dialogText: 'Q4 plan' }, target: rename }))).toMatchObject({ critical: true, facts: { text: 'Q4 plan' } });
  });
});

describe('classifyStep in frames', () => {
  it('acts on the frame’s own site, so a grant for the page does not cover a third-party widget', () => {
    const widget = { role: 'button', name: 'Subscribe', tag: 'button', submits: false, documentUrl: 'https://widgets.othercorp.com/embed' };
    const step = classifyStep(input({ params: { ref: 'f3e2' }, target: widget }));
    expect(step.site).toBe('https://othercorp.com');
    expect(step.facts.site).toBe('https://othercorp.com');
    expect(step.critical).toBe(true);
  });
});
