import { describe, expect, it } from 'vitest';
import { contrast, hasInvisibleInk, parseColor } from '../../src/content/visibility';

const style = (color: string, fontSize = '16px') => ({ color, fontSize }) as CSSStyleDeclaration;

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
