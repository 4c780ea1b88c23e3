import { describe, expect, it } from 'vitest';
import { classifyStep, type StepInput } from '../../../src/background/agent/classify';

const TAB = { id: 4, url: 'https://shop.example.com/products/jacket' };
const input = (extra: Partial<StepInput>): StepInput => ({ tool: 'click', level: 'interact', params: { ref: 'e1' }, tab: TAB, ...extra });

describe('classifyStep', () => {
  it('keeps a plain click at the tool’s level, on the tab’s site, with the target the page described', () => {
    const step = classifyStep(input({ target: { role: 'button', name: 'Add to cart', tag: 'button', submits: false } }));
    expect(step).toMatchObject({ level: 'interact', critical: false, site: 'https://example.com', reasons: [] });
    expect(step.target).toEqual({ ref: 'e1', role: 'button', name: 'Add to cart' });
    expect(step.facts).toEqual({ kind: 'page', site: 'https://example.com', tabId: 4 });
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

  it('treats Enter as a submit in a form field, and when it is not known where it lands', () => {
    const field = { role: 'textbox', name: 'Email', tag: 'input', submits: false, url: 'https://shop.example.com/newsletter', inputType: 'email' };
    expect(classifyStep(input({ tool: 'press_key', params: { ref: 'e2', keys: 'Enter' }, target: field })).level).toBe('submit');
    expect(classifyStep(input({ tool: 'press_key', params: { keys: 'Enter' } })).level).toBe('submit');
    expect(classifyStep(input({ tool: 'press_key', params: { ref: 'e2', keys: 'Tab' }, target: field })).level).toBe('interact');
    const outsideForm = { role: 'textbox', name: 'Filter', tag: 'input', submits: false };
    expect(classifyStep(input({ tool: 'press_key', params: { ref: 'e2', keys: 'Enter' }, target: outsideForm })).level).toBe('interact');
  });

  it('names the text that would go into the page', () => {
    expect(classifyStep(input({ tool: 'fill', params: { ref: 'e3', text: 'Ada' } })).facts.text).toBe('Ada');
    expect(classifyStep(input({ tool: 'select_option', params: { ref: 'e3', option: 'M' } })).facts.text).toBe('M');
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

describe('classifyStep in frames', () => {
  it('acts on the frame’s own site, so a grant for the page does not cover a third-party widget', () => {
    const widget = { role: 'button', name: 'Subscribe', tag: 'button', submits: false, documentUrl: 'https://widgets.othercorp.com/embed' };
    const step = classifyStep(input({ params: { ref: 'f3e2' }, target: widget }));
    expect(step.site).toBe('https://othercorp.com');
    expect(step.facts.site).toBe('https://othercorp.com');
    expect(step.critical).toBe(true);
  });
});
