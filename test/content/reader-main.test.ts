import { describe, expect, it } from 'vitest';
import { pickEndIn } from '../../src/content/reader-main';

describe('pickEndIn', () => {
  const page = 'Subject: Lunch\n  From Bob on Monday\nShall we try the\n    new noodle bar? (at noon)\n\nReply Forward';

  it('finds where the pick ends in the landmark’s text, its white space run longer or across lines', () => {
    expect(page.slice(0, pickEndIn(page, 'Shall we try', 'new noodle bar? (at noon)'))).toMatch(/\(at noon\)$/);
  });

  it('reads the pick’s characters literally, not as a pattern', () => {
    expect(pickEndIn(page, 'Shall we', 'bar. (at noon)')).toBe(-1);
  });

  it('finds no end before the pick’s start, and none where either is missing', () => {
    expect(pickEndIn(page, 'Shall we try', 'From Bob')).toBe(-1);
    expect(pickEndIn(page, 'Dinner', 'noon)')).toBe(-1);
  });
});
