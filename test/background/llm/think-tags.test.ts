import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter, type ThinkPart } from '../../../src/background/llm/think-tags';

function split(chunks: string[]): { text: string; reasoning: string } {
  const splitter = new ThinkTagSplitter();
  const parts: ThinkPart[] = [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
  const of = (kind: ThinkPart['kind']) => parts.filter((part) => part.kind === kind).map((part) => part.text).join('');
  return { text: of('text'), reasoning: of('reasoning') };
}

describe('ThinkTagSplitter', () => {
  it('leaves text without tags alone, including a lone < that is no tag', () => {
    expect(split(['a < b', ' and <b>bold</b>'])).toEqual({ text: 'a < b and <b>bold</b>', reasoning: '' });
  });

  it('splits a thought from the answer and drops the blank lines after it', () => {
    expect(split(['<think>\nPlan.\n</think>\n\nAnswer.'])).toEqual({ text: 'Answer.', reasoning: '\nPlan.\n' });
  });

  it('finds tags split anywhere across chunks, one character at a time', () => {
    expect(split([...'<think>x</think>\n\ny'])).toEqual({ text: 'y', reasoning: 'x' });
  });

  it('keeps an unclosed thought as thinking when the stream ends', () => {
    expect(split(['<think>still thinking', ' when cut'])).toEqual({ text: '', reasoning: 'still thinking when cut' });
  });

  it('releases a held-back partial tag that turned out to be text', () => {
    expect(split(['x <thi', 'ng'])).toEqual({ text: 'x <thing', reasoning: '' });
  });
});
