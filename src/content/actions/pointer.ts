/**
 * Where the pointer rests, as CSS sees it. A menu that opens on `li:hover > ul`, a table row whose
 * actions show while the pointer is over it (WordPress's *Edit* and *Trash*), a card's buttons:
 * a person moving the pointer sees them, but no script can make the browser match `:hover` —
 * synthetic mouse events do not. So the pointer is emulated: the element under it and each of its
 * ancestors (across shadow roots) carry a mark, and every `:hover` rule the page's stylesheets hold
 * is added once more with `:hover` read as that mark. A hover puts the pointer down; a click moves
 * it, as a person's hand would, once a hover has put it down (until then clicks leave styles alone).
 * Stylesheets from another origin cannot be read, so their `:hover` rules are not emulated.
 */

import { shadowRootOf } from '../shadow-root';
import { flatParent } from '../visibility';

const MARK = 'data-jawad-hover';

/** The slice of the CSSOM the rules are read through (structural, so it is testable without a browser). */
export interface RuleLike {
  readonly cssText: string;
  /** Style rules. */
  readonly selectorText?: string;
  /** Grouping rules (@media, @supports, @container, @layer, …) and style rules with nested rules. */
  readonly cssRules?: ArrayLike<RuleLike>;
  /** @import. */
  readonly styleSheet?: { readonly cssRules: ArrayLike<RuleLike> } | null;
}

/** `:hover` read as the mark; an escaped `\:hover` in a class name (Tailwind's `hover\:underline`) is a name, not a state. */
export function hoverAsMark(css: string): string {
  return css.replace(/(?<!\\):hover(?![\w-])/g, `[${MARK}]`);
}

/**
 * The page's `:hover` rules rewritten to the mark, each inside the conditions it was written under
 * (`@media`, `@supports`, a nesting parent). Only rules that mention `:hover` are copied: a copy of
 * any other rule, added after the page's own, could win the cascade over rules that beat it before.
 */
export function hoverRules(rules: ArrayLike<RuleLike>): string[] {
  const found: string[] = [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.selectorText !== undefined && hoverAsMark(rule.selectorText) !== rule.selectorText) {
      found.push(hoverAsMark(rule.cssText));
    } else if (rule.styleSheet) {
      found.push(...hoverRules(rule.styleSheet.cssRules));
    } else if (rule.cssRules && rule.cssRules.length > 0) {
      const inner = hoverRules(rule.cssRules);
      if (inner.length > 0) found.push(`${preludeOf(rule)} { ${inner.join(' ')} }`);
    }
  }
  return found;
}

/** What a grouping or nesting rule says before its block: `@media (max-width: 600px)`, `.menu`. */
function preludeOf(rule: RuleLike): string {
  return rule.selectorText ?? rule.cssText.slice(0, rule.cssText.indexOf('{')).trim();
}

/** Each stylesheet's `:hover` rules as last read, and how many rules it had then: a big site's CSS is read once, not at every hover. */
const readSheets = new WeakMap<CSSStyleSheet, { length: number; hover: string[] }>();

/** The stylesheet's `:hover` rules rewritten, or nothing when the browser keeps its rules from us (another origin). */
function hoverRulesOf(sheet: CSSStyleSheet): string[] | undefined {
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    return undefined;
  }
  const known = readSheets.get(sheet);
  if (known?.length === rules.length) return known.hover;
  const hover = hoverRules(rules);
  readSheets.set(sheet, { length: rules.length, hover });
  return hover;
}

type StyleRoot = Document | ShadowRoot;

/** What the emulation did, for the model: how many `:hover` rules now follow the pointer, and which stylesheets could not be read. */
export interface HoverStyles {
  hoverRules: number;
  unreadableStylesheets?: number;
}

export class Pointer {
  private marked: Element[] = [];
  /** Each root's copied rules, and the stylesheets they were copied from (to copy again when those change). */
  private readonly copies = new Map<StyleRoot, { sheet: CSSStyleSheet; from: string }>();

  /** Puts the pointer on `target`: it and its ancestors now match the page's `:hover` rules. */
  rest(target: Element): HoverStyles {
    const chain = hoverChain(target);
    let hoverRuleCount = 0;
    let unreadable = 0;
    for (const root of rootsOf(chain)) {
      const copied = this.copyHoverRules(root);
      hoverRuleCount += copied.rules;
      unreadable += copied.unreadable;
    }
    this.mark(chain);
    return { hoverRules: hoverRuleCount, ...(unreadable > 0 ? { unreadableStylesheets: unreadable } : {}) };
  }

  /** A click on `target` moves the pointer there, once a hover has put it down. */
  follow(target: Element): void {
    if (this.marked.length > 0) this.rest(target);
  }

  private mark(chain: Element[]): void {
    const next = new Set(chain);
    for (const element of this.marked) if (!next.has(element)) element.removeAttribute(MARK);
    for (const element of chain) if (!element.hasAttribute(MARK)) element.setAttribute(MARK, '');
    this.marked = chain;
  }

  /** Copies the root's `:hover` rules into a stylesheet of ours there, again only when its stylesheets changed. */
  private copyHoverRules(root: StyleRoot): { rules: number; unreadable: number } {
    const copy = this.copies.get(root);
    const sheets = [...Array.from(root.styleSheets), ...root.adoptedStyleSheets].filter((sheet) => sheet !== copy?.sheet);
    const rules: string[] = [];
    let unreadable = 0;
    for (const sheet of sheets) {
      const hover = hoverRulesOf(sheet);
      if (hover === undefined) unreadable++;
      else rules.push(...hover);
    }
    const from = rules.join('\n');
    if (copy?.from !== from) {
      const sheet = copy?.sheet ?? new CSSStyleSheet();
      // Rule by rule, so that a rule this browser cannot parse (another's vendor prefix) loses only itself.
      sheet.replaceSync('');
      for (const rule of rules) {
        try {
          sheet.insertRule(rule, sheet.cssRules.length);
        } catch {
          // Left out: not every browser parses every rule the page wrote for the others.
        }
      }
      this.copies.set(root, { sheet, from });
    }
    const sheet = this.copies.get(root)!.sheet;
    // Adopted, not a <style>: the page's Content-Security-Policy governs the text of style
    // elements (Firefox applies it to an extension's too), not a stylesheet built through the CSSOM.
    // Adopted again if the page has since replaced its list.
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return { rules: sheet.cssRules.length, unreadable };
  }
}

/** The element under the pointer and every element `:hover` matches with it: its ancestors, out through shadow roots. */
function hoverChain(target: Element): Element[] {
  const chain: Element[] = [];
  for (let current: Element | null = target; current; current = flatParent(current)) chain.push(current);
  return chain;
}

/**
 * The document and the shadow roots the chain passes through, and those of hosts in it (whose
 * `:host(:hover)` rules style them from inside): each holds stylesheets of its own.
 */
function rootsOf(chain: readonly Element[]): StyleRoot[] {
  const roots = new Set<StyleRoot>();
  for (const element of chain) {
    const root = element.getRootNode();
    if (root instanceof Document || root instanceof ShadowRoot) roots.add(root);
    const own = shadowRootOf(element);
    if (own) roots.add(own);
  }
  return [...roots];
}
