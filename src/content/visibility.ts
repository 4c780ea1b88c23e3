/**
 * What a person cannot see must not reach the model: the rules both the reader (markdown) and the
 * snapshot apply, in one place. Layout rules (display, visibility, opacity, size, clipping,
 * off-page) are answered by the browser; this module adds the ones it does not know about — text
 * too small to read, and text the colour of what it sits on.
 */

/** Hidden on purpose, whatever the styles say. */
export function isMarkedHidden(element: Element): boolean {
  return element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden');
}

/** Pushed out of the page (left: -10000px and friends): no scrolling brings it into view. */
export function isPushedOffPage(rect: DOMRect, view: Window | null): boolean {
  return rect.right + (view?.scrollX ?? 0) <= 0 || rect.bottom + (view?.scrollY ?? 0) <= 0;
}

interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** Computed colours come as rgb()/rgba(); anything else (oklch(), color()) is not judged. */
export function parseColor(value: string): Rgba | undefined {
  const match = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value.trim());
  if (!match) return undefined;
  const alpha = match[4] === undefined ? 1 : match[4].endsWith('%') ? Number(match[4].slice(0, -1)) / 100 : Number(match[4]);
  return { r: Number(match[1]), g: Number(match[2]), b: Number(match[3]), a: alpha };
}

function luminance({ r, g, b }: Rgba): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio: 1 for the same colour, 21 for black on white. */
export function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Below this, text is the colour of its background to the eye (readable text needs 4.5). */
const INVISIBLE_CONTRAST = 1.1;
/** Text this small (font-size: 0 and its cousins) shows nothing a person can read. */
const MIN_READABLE_FONT_PX = 2;

/**
 * The colour an element's text sits on, as far as the DOM tells: the nearest ancestor background
 * that is opaque. Unknown (undefined) under a background image, or when nothing sets one on a
 * dark-scheme page. Cached per pass: ancestors are shared by many text elements.
 */
export class BackgroundFinder {
  private readonly known = new WeakMap<Element, string | null>();

  of(element: Element): string | undefined {
    const chain: Element[] = [];
    let found: string | null | undefined;
    for (let current: Element | null = element; current; current = current.parentElement) {
      found = this.known.get(current);
      if (found !== undefined) break;
      chain.push(current);
      const style = getComputedStyle(current);
      if (style.backgroundImage !== 'none') found = null;
      else if ((parseColor(style.backgroundColor)?.a ?? 0) > 0.9) found = style.backgroundColor;
      if (found !== undefined) break;
    }
    if (found === undefined) found = canvasColour(element.ownerDocument);
    for (const seen of chain) this.known.set(seen, found);
    return found ?? undefined;
  }
}

/** The page's canvas when nothing paints a background: white, unless the page asks for a dark scheme. */
function canvasColour(doc: Document): string | null {
  const scheme = getComputedStyle(doc.documentElement).colorScheme;
  return /dark/.test(scheme) ? null : 'rgb(255, 255, 255)';
}

/** Text of this element that no one can read: too small, transparent, or the colour of its background. */
export function hasInvisibleInk(style: CSSStyleDeclaration, background: string | undefined): boolean {
  if (parseFloat(style.fontSize) < MIN_READABLE_FONT_PX) return true;
  const ink = parseColor(style.color);
  if (!ink) return false;
  if (ink.a < 0.1) return true;
  const ground = background === undefined ? undefined : parseColor(background);
  return ground !== undefined && contrast(ink, ground) < INVISIBLE_CONTRAST;
}
