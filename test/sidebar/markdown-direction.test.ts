import { describe, expect, it } from 'vitest';
import { directionOf } from '../../src/sidebar/markdown';

describe('the direction a list or table of an answer reads in', () => {
  it('is right to left when its first letter is Arabic, Hebrew or another script written so', () => {
    expect(directionOf('يبلغ طوله 354 كم')).toBe('rtl');
    expect(directionOf('שלום עולם')).toBe('rtl');
    expect(directionOf('ܫܠܡܐ')).toBe('rtl');
  });

  it('goes by the first letter: digits, bullets and punctuation before it do not count', () => {
    expect(directionOf('354 — يبلغ طوله')).toBe('rtl');
    expect(directionOf('1. The Severn, ثم النهر')).toBe('ltr');
  });

  it('is left to right for other scripts and for text with no letter', () => {
    expect(directionOf('The Severn Bore')).toBe('ltr');
    expect(directionOf('Привет')).toBe('ltr');
    expect(directionOf('日本語')).toBe('ltr');
    expect(directionOf('42 %')).toBe('ltr');
    expect(directionOf('')).toBe('ltr');
  });
});
