import { describe, expect, it } from 'vitest';
import { clipPathArea, contrast, cssClipArea, filterOpacity, hasInvisibleInk, isEmptyClip, parseColor, textShowsIn } from '../../src/content/visibility';

/** A computed style with only what the ink rules read; `extra` holds properties read by name. */
const style = (color: string, fontSize = '16px', extra: Record<string, string> = {}, backgroundImage = 'none') =>
  ({ color, fontSize, backgroundImage, getPropertyValue: (name: string) => extra[name] ?? '' }) as unknown as CSSStyleDeclaration;

describe('parseColor', () => {
  it('reads the computed forms browsers give, and declines the rest', () => {
    expect(parseColor('rgb(255, 0, 10)')).toEqual({ r: 255, g: 0, b: 10, a: 1 });
    expect(parseColor('rgba(0, 0, 0, 0)')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(parseColor('rgb(1 2 3 / 50%)')).toEqual({ r: 1, g: 2, b: 3, a: 0.5 });
    expect(parseColor('oklch(0.5 0.1 20)')).toBeUndefined();
  });
});

describe('contrast', () => {
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrast({ r: 0, g: 0, b: 0, a: 1 }, { r: 255, g: 255, b: 255, a: 1 })).toBeCloseTo(21, 0);
    expect(contrast({ r: 40, g: 90, b: 200, a: 1 }, { r: 40, g: 90, b: 200, a: 1 })).toBe(1);
  });
});

describe('hasInvisibleInk', () => {
  it('flags text too small to read, transparent text and text the colour of its background', () => {
    expect(hasInvisibleInk(style('rgb(0, 0, 0)', '0px'), 'rgb(255, 255, 255)')).toBe(true);
    expect(hasInvisibleInk(style('rgba(0, 0, 0, 0)'), 'rgb(255, 255, 255)')).toBe(true);
    expect(hasInvisibleInk(style('rgb(255, 255, 255)'), 'rgb(255, 255, 255)')).toBe(true);
    expect(hasInvisibleInk(style('rgb(250, 250, 250)'), 'rgb(255, 255, 255)')).toBe(true);
  });

  it('keeps ordinary text, faint-but-readable text, and text on an unknown background', () => {
    expect(hasInvisibleInk(style('rgb(33, 33, 33)'), 'rgb(255, 255, 255)')).toBe(false);
    expect(hasInvisibleInk(style('rgb(150, 150, 150)'), 'rgb(255, 255, 255)')).toBe(false);
    expect(hasInvisibleInk(style('rgb(255, 255, 255)'), undefined)).toBe(false);
    expect(hasInvisibleInk(style('rgb(255, 255, 255)'), 'rgb(13, 79, 74)')).toBe(false);
  });
});

describe('textShowsIn', () => {
  const drawn = (left: number, top: number, width: number, height: number) => ({ left, top, width, height, right: left + width, bottom: top + height }) as DOMRect;
  const view = { scrollX: 0, scrollY: 0, innerWidth: 1280, innerHeight: 800 };

  it('flags text pushed out of the page or outside what the clips leave', () => {
    expect(textShowsIn(drawn(-10_000, 10, 300, 18), undefined, view)).toBe(false);
    expect(textShowsIn(drawn(10, 10, 300, 18), { left: 400, top: 0, right: 800, bottom: 800 }, view)).toBe(false);
  });
});

describe('hasInvisibleInk, scaled and filled', () => {
  it('flags ordinary text shrunk to a speck by a transform or zoom', () => {
    expect(hasInvisibleInk(style('rgb(0, 0, 0)'), 'rgb(255, 255, 255)', 0.1)).toBe(true);
    expect(hasInvisibleInk(style('rgb(0, 0, 0)'), 'rgb(255, 255, 255)', 0)).toBe(true);
    expect(hasInvisibleInk(style('rgb(0, 0, 0)'), 'rgb(255, 255, 255)', 0.5)).toBe(false);
  });

  it('reads -webkit-text-fill-color over color, except for gradient text painted by its background', () => {
    const transparentFill = { '-webkit-text-fill-color': 'rgba(0, 0, 0, 0)' };
    expect(hasInvisibleInk(style('rgb(0, 0, 0)', '16px', transparentFill), 'rgb(255, 255, 255)')).toBe(true);
    expect(hasInvisibleInk(style('rgb(0, 0, 0)', '16px', { ...transparentFill, 'background-clip': 'text' }, 'linear-gradient(red, blue)'), 'rgb(255, 255, 255)')).toBe(false);
    expect(hasInvisibleInk(style('rgb(0, 0, 0)', '16px', { '-webkit-text-fill-color': 'rgb(255, 255, 255)' }), 'rgb(255, 255, 255)')).toBe(true);
  });
});

const box = { left: 100, top: 50, width: 400, height: 20 };

describe('clipPathArea', () => {
  it('leaves nothing for the shapes that hide (computed forms from Chromium and Firefox)', () => {
    for (const value of ['inset(50%)', 'inset(0px 0px 100%)', 'inset(0px 100% 100% 0px)', 'circle(0px)', 'circle(0px at 50% 50%)', 'ellipse(0px 0px)', 'polygon(0px 0px, 0px 0px, 0px 0px)', 'inset(50%) border-box']) {
      expect(isEmptyClip(clipPathArea(value, box)), value).toBe(true);
    }
  });

  it('keeps what a visible shape covers, and does not judge url(), path() or keywords', () => {
    expect(clipPathArea('inset(2px 10% 3px 40px round 5px)', box)).toEqual({ left: 140, top: 52, right: 460, bottom: 67 });
    // A circle's percentage is of the box's diagonal over √2 (CSS Shapes).
    const r = (0.5 * Math.hypot(400, 20)) / Math.SQRT2;
    expect(clipPathArea('circle(50% at 10px 10px)', box)).toEqual({ left: 110 - r, top: 60 - r, right: 110 + r, bottom: 60 + r });
    expect(isEmptyClip(clipPathArea('polygon(0% 0%, 100% 0%, 50% 100%)', box))).toBe(false);
    expect(clipPathArea('url("#x")', box)).toBeUndefined();
    expect(clipPathArea('path("M 0 0 L 0 0")', box)).toBeUndefined();
    expect(clipPathArea('circle(closest-side)', box)).toBeUndefined();
  });
});

describe('cssClipArea', () => {
  it('reads rect(top, right, bottom, left) against the box, auto meaning the edge', () => {
    expect(isEmptyClip(cssClipArea('rect(0px, 0px, 0px, 0px)', box))).toBe(true);
    expect(cssClipArea('rect(0px, auto, auto, 0px)', box)).toEqual({ left: 100, top: 50, right: 500, bottom: 70 });
    expect(cssClipArea('auto', box)).toBeUndefined();
  });
});

describe('filterOpacity', () => {
  it('multiplies every opacity() in the filter, numbers or percentages', () => {
    expect(filterOpacity('none')).toBe(1);
    expect(filterOpacity('opacity(0)')).toBe(0);
    expect(filterOpacity('blur(2px) opacity(50%) opacity(0.5)')).toBe(0.25);
  });
});
