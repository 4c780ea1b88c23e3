/**
 * Product facts (name, price, currency, brand, rating, availability) from what the page declares —
 * JSON-LD, then microdata, then OpenGraph — and, where those say nothing, from the visible page.
 * Each field comes from the first source that has it; `sources` says which were used.
 * Declared data is text no one sees: a field is kept only clipped, and only where the visible page
 * agrees with it (every word of a name shown, the price figure shown, codes that cannot carry words).
 */
import { CAPS, clipText, oneLine } from '../protocol/caps';
import type { Product } from '../protocol/messages';
import { VisibleTree, visibleText } from './visibility';

type Facts = Partial<Omit<Product, 'sources'>>;
type JsonObject = Record<string, unknown>;

const FIELDS = ['name', 'price', 'currency', 'brand', 'rating', 'availability'] as const;
const CURRENCY_SYMBOLS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' };

function text(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  return oneLine(value) || undefined;
}

/** "https://schema.org/InStock" → "InStock". */
function shortEnum(value: unknown): string | undefined {
  return text(value)?.replace(/^https?:\/\/schema\.org\//i, '');
}

function isProduct(node: JsonObject): boolean {
  const type = node['@type'];
  return type === 'Product' || (Array.isArray(type) && type.includes('Product'));
}

function findProducts(value: unknown, found: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(value)) value.forEach((item) => findProducts(item, found));
  else if (value && typeof value === 'object') {
    const node = value as JsonObject;
    if (isProduct(node)) found.push(node);
    else findProducts(node['@graph'], found);
  }
  return found;
}

function fromJsonLd(doc: Document): Facts {
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(script.textContent ?? '');
    } catch {
      continue; // a broken block on the page is the page's problem, not a reason to fail
    }
    const [product] = findProducts(parsed);
    if (!product) continue;
    const offers = (Array.isArray(product.offers) ? product.offers[0] : product.offers) as JsonObject | undefined;
    const brand = product.brand as JsonObject | string | undefined;
    const rating = product.aggregateRating as JsonObject | undefined;
    return {
      name: text(product.name),
      price: text(offers?.price ?? offers?.lowPrice),
      currency: text(offers?.priceCurrency),
      brand: typeof brand === 'string' ? text(brand) : text(brand?.name),
      rating: text(rating?.ratingValue),
      availability: shortEnum(offers?.availability),
    };
  }
  return {};
}

function fromMicrodata(doc: Document, tree: VisibleTree | undefined): Facts {
  const scope = doc.querySelector('[itemscope][itemtype*="schema.org/Product"]');
  if (!scope) return {};
  const shown = (element: Element) => (tree && !tree.hides(element) ? visibleText(tree, element) : undefined);
  const prop = (name: string) => {
    const element = scope.querySelector(`[itemprop="${name}"]`);
    if (!element) return undefined;
    return text(element.getAttribute('content') ?? element.getAttribute('href') ?? shown(element));
  };
  const brand = scope.querySelector('[itemprop="brand"]');
  const brandName = brand?.querySelector('[itemprop="name"]');
  return {
    name: prop('name'),
    price: prop('price'),
    currency: prop('priceCurrency'),
    brand: brand ? text((brandName ? shown(brandName) : undefined) ?? brand.getAttribute('content') ?? shown(brand)) : undefined,
    rating: prop('ratingValue'),
    availability: shortEnum(prop('availability')),
  };
}

function fromOpenGraph(doc: Document): Facts {
  const meta = (property: string) => text(doc.querySelector(`meta[property="${property}"]`)?.getAttribute('content'));
  if (!meta('product:price:amount') && meta('og:type') !== 'product') return {};
  return {
    name: meta('og:title'),
    price: meta('product:price:amount') ?? meta('og:price:amount'),
    currency: meta('product:price:currency') ?? meta('og:price:currency'),
    brand: meta('product:brand'),
    availability: meta('product:availability'),
  };
}

/** Text after the main heading up to the next heading (a product's summary), and whether a button sits in it. */
const SUMMARY_CHARS = 600;

function summaryAfter(heading: Element, scope: Element, tree: VisibleTree): { text: string; hasButton: boolean } {
  const doc = heading.ownerDocument;
  const walker = doc.createTreeWalker(scope, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  let node = nextOutside(walker, heading);
  let text = '';
  let hasButton = false;
  while (node && text.length < SUMMARY_CHARS) {
    if (node.nodeType === Node.TEXT_NODE) {
      // Only what a person sees counts: a hidden price is no offer.
      const parent = node.parentElement;
      if (parent && !tree.hides(parent)) text += ` ${(node as Text).data}`;
    } else {
      const element = node as Element;
      if (/^h[1-3]$/.test(element.localName)) break;
      const type = element.getAttribute('type');
      const isButton = element.localName === 'button' || element.getAttribute('role') === 'button' || (element.localName === 'input' && (type === 'submit' || type === 'button'));
      if (isButton && !tree.hides(element)) hasButton = true;
    }
    node = walker.nextNode();
  }
  return { text: text.replace(/\s+/g, ' '), hasButton };
}

/** The first node after `element`'s subtree in document order. */
function nextOutside(walker: TreeWalker, element: Element): Node | null {
  walker.currentNode = element;
  while (walker.currentNode && !walker.nextSibling()) if (!walker.parentNode()) return null;
  return walker.currentNode === element ? null : walker.currentNode;
}

/**
 * Last resort: the visible main heading, a price in the summary right under it, and a button there
 * to buy with. A price mentioned in an article (a book that "sold for £2.50") is no offer.
 */
function fromVisiblePage(doc: Document, tree: VisibleTree | undefined): Facts {
  const heading = Array.from(doc.querySelectorAll('h1')).find((element) => tree && !tree.hides(element));
  if (!tree || !heading) return {};
  const name = text(visibleText(tree, heading));
  const scope = heading.closest('main, article, [itemscope], section, form') ?? tree.root;
  if (!name || tree.hides(scope)) return {};
  const summary = summaryAfter(heading, scope, tree);
  const match = /([$€£¥₹])\s?(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{2})?)|(\d+(?:[.,]\d{2})?)\s?(EUR|USD|GBP|€)/.exec(summary.text);
  if (!match || !summary.hasButton) return {};
  const symbol = match[1] ?? match[4] ?? '';
  const amount = (match[2] ?? match[3] ?? '').replace(/[\s,](?=\d{3}\b)/g, '').replace(',', '.');
  return { name, price: amount, currency: CURRENCY_SYMBOLS[symbol] ?? symbol };
}

// ---- Agreement with the visible page (pure) ----------------------------------------------------

/** What the visible page shows, as checkable pieces: its words and the numbers it prints. */
export interface ShownFacts {
  words: Set<string>;
  numbers: number[];
}

const WORD = /[\p{L}\p{N}]+/gu;

export function shownFacts(visible: string): ShownFacts {
  const numbers: number[] = [];
  for (const [figure] of visible.matchAll(/\d[\d.,]*/g)) {
    // "1,299.00" and "1.299,00" are the same price written two ways: try both readings.
    numbers.push(Number(figure.replace(/[.,]$/, '').replace(/,/g, '')), Number(figure.replace(/[.,]$/, '').replace(/\./g, '').replace(',', '.')));
  }
  return { words: new Set(visible.toLowerCase().match(WORD) ?? []), numbers: numbers.filter(Number.isFinite) };
}

const CODE = /^[A-Za-z]{1,30}$/;
const CURRENCY = /^(?:[A-Za-z]{3}|[$€£¥₹])$/;

/** A declared fact as the model may see it: clipped, and only where the visible page agrees; otherwise undefined. */
export function vetFact(field: (typeof FIELDS)[number], value: string | undefined, page: ShownFacts): string | undefined {
  if (value === undefined) return undefined;
  switch (field) {
    case 'name':
    case 'brand': {
      const words = value.toLowerCase().match(WORD) ?? [];
      return words.length > 0 && words.every((word) => page.words.has(word)) ? clipText(value, CAPS.productField) : undefined;
    }
    case 'price': {
      const amount = Number(value.replace(/,/g, ''));
      return /^\d[\d,]*(?:\.\d+)?$/.test(value) && page.numbers.some((shown) => Math.abs(shown - amount) < 0.005) ? value : undefined;
    }
    case 'rating':
      return /^\d{1,3}(?:\.\d{1,2})?$/.test(value) ? value : undefined;
    case 'currency':
      return CURRENCY.test(value) ? value : undefined;
    case 'availability':
      return CODE.test(value) ? value : undefined;
  }
}

/** The facts that agree with the page; the page's visible text is read only when some fact needs it. */
function vetted(facts: Facts, page: () => ShownFacts): Facts {
  const kept: Facts = {};
  for (const field of FIELDS) if (facts[field] !== undefined) kept[field] = vetFact(field, facts[field], page());
  return kept;
}

/** Schema.org types of pages that are about something other than an offer. */
const NOT_OFFERS = /^(Article|NewsArticle|BlogPosting|Blog|ScholarlyArticle|TechArticle|Report|FAQPage|QAPage|ProfilePage|Person|Event|Recipe|Course|Dataset)$/;

/** The page says what it is, and it is not a product: an encyclopedia article, a news story, a blog post. */
function declaresOtherKind(doc: Document): boolean {
  if (/^(article|profile|video\.|music\.|book)/.test(doc.querySelector('meta[property="og:type"]')?.getAttribute('content') ?? '')) return true;
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      const parsed = JSON.parse(script.textContent ?? '') as unknown;
      const nodes = Array.isArray(parsed) ? parsed : [parsed];
      if (nodes.some((node) => NOT_OFFERS.test(String((node as JsonObject | null)?.['@type'] ?? '')))) return true;
    } catch {
      continue;
    }
  }
  return false;
}

export function extractProduct(doc: Document, tree: VisibleTree | undefined): Product | null {
  let shown: ShownFacts | undefined;
  // The title shows too, in the tab strip (cut as everywhere else).
  const page = () => (shown ??= shownFacts(`${clipText(doc.title, CAPS.title)}\n${tree ? visibleText(tree) : ''}`));
  const sources: Array<[Product['sources'][number], Facts]> = [
    ['json-ld', vetted(fromJsonLd(doc), page)],
    ['microdata', vetted(fromMicrodata(doc, tree), page)],
    ['opengraph', vetted(fromOpenGraph(doc), page)],
  ];
  // Declared data the page does not show leaves its name to the visible heading — unless the page
  // says it is something other than an offer (an article, a news story).
  if (!sources.some(([, facts]) => facts.name) && !declaresOtherKind(doc)) sources.push(['visible', vetted(fromVisiblePage(doc, tree), page)]);
  const product: Product = { sources: [] };
  for (const field of FIELDS) {
    const source = sources.find(([, facts]) => facts[field]);
    if (!source) continue;
    product[field] = source[1][field];
    if (!product.sources.includes(source[0])) product.sources.push(source[0]);
  }
  return product.sources.length > 0 && product.name ? product : null;
}
