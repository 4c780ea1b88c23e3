import { describe, expect, it } from 'vitest';
import { clickPoint } from '../../src/content/click-point';

const box = (left: number, top: number, width: number, height: number) => ({ left, top, width, height, right: left + width, bottom: top + height, x: left, y: top }) as DOMRect;

/** An element drawn as `fragments` (one per line it spans), in a window 800×600. */
function drawnAs(...fragments: DOMRect[]): Element {
  const left = Math.min(...fragments.map((fragment) => fragment.left));
  const top = Math.min(...fragments.map((fragment) => fragment.top));
  const right = Math.max(...fragments.map((fragment) => fragment.right));
  const bottom = Math.max(...fragments.map((fragment) => fragment.bottom));
  return {
    getBoundingClientRect: () => box(left, top, right - left, bottom - top),
    getClientRects: () => fragments,
    ownerDocument: { defaultView: { innerWidth: 800, innerHeight: 600 } },
  } as unknown as Element;
}

describe('where an element is clicked', () => {
  it('is the centre of a box drawn in one piece', () => {
    expect(clickPoint(drawnAs(box(100, 40, 80, 20)))).toEqual({ x: 140, y: 50 });
  });

  it('is the centre of the first half of a link that wraps, where the centre of both lies on neither', () => {
    // "Pinned" at the end of one line, "message" at the start of the next.
    expect(clickPoint(drawnAs(box(156, 10, 72, 20), box(0, 40, 84, 20)))).toEqual({ x: 192, y: 20 });
  });

  it('is the centre of the first half that shows in the window', () => {
    expect(clickPoint(drawnAs(box(700, -30, 90, 20), box(0, 0, 84, 20)))).toEqual({ x: 42, y: 10 });
  });

  it('stays the centre of the whole when that lies on one of its boxes (a block-level link over lines)', () => {
    expect(clickPoint(drawnAs(box(0, 0, 300, 20), box(0, 20, 300, 20)))).toEqual({ x: 150, y: 20 });
  });

  it('leaves out boxes a pixel or less across (the empty boxes a wrapped inline leaves)', () => {
    expect(clickPoint(drawnAs(box(156, 10, 0, 20), box(0, 40, 84, 20)))).toEqual({ x: 42, y: 50 });
  });
});
