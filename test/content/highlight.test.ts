import { describe, expect, it } from 'vitest';
import { inView, labelPosition, outlineBox } from '../../src/content/highlight';

const viewport = { width: 1000, height: 800 };

describe('outlineBox', () => {
  it('draws the outline just outside the element, so the element’s own edges stay visible', () => {
    expect(outlineBox({ left: 100, top: 50, width: 80, height: 30 })).toEqual({ left: 98, top: 48, width: 84, height: 34 });
  });

  it('draws nothing for an element with no box (display: none now, or removed)', () => {
    expect(outlineBox({ left: 0, top: 0, width: 0, height: 0 })).toBeNull();
  });
});

describe('labelPosition', () => {
  it('puts the label just above the outline’s top-left corner', () => {
    expect(labelPosition({ left: 98, top: 48, width: 84, height: 34 }, 30, viewport)).toEqual({ left: 98, top: 34 });
  });

  it('puts it inside the outline when there is no room above (an element at the top of the window)', () => {
    expect(labelPosition({ left: 98, top: 4, width: 84, height: 34 }, 30, viewport)).toEqual({ left: 98, top: 4 });
    expect(labelPosition({ left: 98, top: -20, width: 84, height: 300 }, 30, viewport)).toEqual({ left: 98, top: 0 });
  });

  it('keeps the label on screen for elements cut off at the left or right edge', () => {
    expect(labelPosition({ left: -40, top: 100, width: 84, height: 34 }, 30, viewport).left).toBe(0);
    expect(labelPosition({ left: 990, top: 100, width: 84, height: 34 }, 30, viewport).left).toBe(970);
  });
});

describe('inView', () => {
  it('draws outlines that reach into the window, and not those of elements scrolled away', () => {
    expect(inView({ left: 98, top: 790, width: 84, height: 34 }, viewport)).toBe(true);
    expect(inView({ left: 98, top: -30, width: 84, height: 34 }, viewport)).toBe(true);
    expect(inView({ left: 98, top: 820, width: 84, height: 34 }, viewport)).toBe(false);
    expect(inView({ left: 98, top: -40, width: 84, height: 34 }, viewport)).toBe(false);
    expect(inView({ left: 1010, top: 100, width: 84, height: 34 }, viewport)).toBe(false);
  });
});
