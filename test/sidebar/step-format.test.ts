import { describe, expect, it } from 'vitest';
import type { AgentStep } from '../../src/protocol';
import { formatDuration, outcomeText, revealHidden, siteLabel, summarizeParams, targetLabel } from '../../src/sidebar/step-format';
import { agentStep } from '../support/agent-step';

const step = (extra: Partial<AgentStep>): AgentStep => agentStep({ promptRaised: true, ...extra });

describe('summarizeParams', () => {
  it('names the element first, bare, then the other parameters', () => {
    expect(summarizeParams({ selector: '#go' })).toBe('#go');
    expect(summarizeParams({ text: 'Ada Lovelace', ref: 'e12' })).toBe('e12 · text: “Ada Lovelace”');
    expect(summarizeParams({ url: 'https://example.com/', newTab: true })).toBe('url: “https://example.com/” · newTab: true');
    expect(summarizeParams({})).toBe('');
  });

  it('keeps to one short line however long or multi-line the values are', () => {
    const summary = summarizeParams({ ref: 'e1', text: `first line\nsecond line ${'x'.repeat(200)}` }, 40);
    expect(summary).toHaveLength(40);
    expect(summary).toMatch(/^e1 · text: “first line second line x+…$/);
  });

  it('shows hidden characters a page could use to disguise text', () => {
    expect(summarizeParams({ text: 'pay\u202Eevil' })).toBe('text: “pay[U+202E]evil”');
  });
});

describe('revealHidden', () => {
  it('turns bidi controls and zero-width characters into visible code points, leaving other text alone', () => {
    expect(revealHidden('a\u200Bb\u2066c\uFEFF')).toBe('a[U+200B]b[U+2066]c[U+FEFF]');
    expect(revealHidden('Grüße, مرحبا 👋')).toBe('Grüße, مرحبا 👋');
  });
});

describe('labels', () => {
  it('shows a site without its http(s) scheme', () => {
    expect(siteLabel('https://shop.example.com')).toBe('shop.example.com');
    expect(siteLabel('http://127.0.0.1')).toBe('127.0.0.1');
    expect(siteLabel('file:///home')).toBe('file:///home');
  });

  it('names the target as its role and accessible name', () => {
    expect(targetLabel({ role: 'button', name: 'Add  to\ncart' })).toBe('button “Add to cart”');
    expect(targetLabel({ role: 'textbox', name: '', selector: '#q' })).toBe('textbox');
    expect(targetLabel({ role: 'link', name: 'x'.repeat(50) }, 10)).toBe(`link “${'x'.repeat(9)}…”`);
  });

  it('formats durations in ms below a second and seconds above', () => {
    expect(formatDuration(42.4)).toBe('42 ms');
    expect(formatDuration(1_234)).toBe('1.2 s');
    expect(formatDuration(12_345)).toBe('12 s');
  });
});

describe('outcomeText', () => {
  it('prefers the error message, then the result summary', () => {
    expect(outcomeText(step({ status: 'done', result: { success: true, summary: 'clicked button “Go”' } }))).toBe('clicked button “Go”');
    expect(outcomeText(step({ status: 'failed', result: { success: false, summary: 'click failed', error: { code: 'COVERED', message: 'Covered by dialog "Cookies"' } } }))).toBe('Covered by dialog "Cookies"');
  });

  it('says why policy blocked a step, and nothing while it is still running', () => {
    expect(outcomeText(step({ status: 'denied', decision: 'policy-deny', reasons: ['javascript: URLs are never opened.'] }))).toBe('javascript: URLs are never opened.');
    expect(outcomeText(step({ status: 'running' }))).toBeUndefined();
  });
});
