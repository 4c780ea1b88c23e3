import { describe, expect, it } from 'vitest';
import { ToolCallAccumulator } from '../../../src/background/llm/tool-calls';

function accumulate(deltas: Parameters<ToolCallAccumulator['add']>[0][]) {
  const acc = new ToolCallAccumulator();
  for (const delta of deltas) acc.add(delta);
  return acc.finish();
}

describe('ToolCallAccumulator', () => {
  it('rebuilds an OpenAI call whose arguments arrive in fragments', () => {
    expect(
      accumulate([
        { index: 0, id: 'call_a', type: 'function', function: { name: 'read_page', arguments: '' } },
        { index: 0, function: { arguments: '{"max' } },
        { index: 0, function: { arguments: 'Chars": 20' } },
        { index: 0, function: { arguments: '00}' } },
      ]),
    ).toEqual([{ id: 'call_a', name: 'read_page', arguments: '{"maxChars": 2000}' }]);
  });

  it('keeps interleaved fragments of parallel calls apart, in start order', () => {
    expect(
      accumulate([
        { index: 0, id: 'a', function: { name: 'first', arguments: '' } },
        { index: 1, id: 'b', function: { name: 'second', arguments: '' } },
        { index: 1, function: { arguments: '{"y":' } },
        { index: 0, function: { arguments: '{"x":' } },
        { index: 0, function: { arguments: '1}' } },
        { index: 1, function: { arguments: '2}' } },
      ]),
    ).toEqual([
      { id: 'a', name: 'first', arguments: '{"x":1}' },
      { id: 'b', name: 'second', arguments: '{"y":2}' },
    ]);
  });

  it('tolerates servers that repeat the id on every fragment', () => {
    expect(
      accumulate([
        { index: 0, id: 'a', function: { name: 'f', arguments: '{"q":' } },
        { index: 0, id: 'a', function: { arguments: '"x"}' } },
      ]),
    ).toEqual([{ id: 'a', name: 'f', arguments: '{"q":"x"}' }]);
  });

  it('takes whole calls without an index (Ollama) as separate calls', () => {
    expect(
      accumulate([
        { id: 'o1', function: { name: 'one', arguments: '{}' } },
        { id: 'o2', function: { name: 'two', arguments: '{"k":1}' } },
      ]),
    ).toEqual([
      { id: 'o1', name: 'one', arguments: '{}' },
      { id: 'o2', name: 'two', arguments: '{"k":1}' },
    ]);
  });

  it('continues the last call when a fragment has neither index nor id', () => {
    expect(
      accumulate([{ function: { name: 'f', arguments: '{"a"' } }, { function: { arguments: ': 1}' } }]),
    ).toEqual([{ id: 'call_0', name: 'f', arguments: '{"a": 1}' }]);
  });

  it('splits Gemini-style calls that reuse index 0 with distinct ids', () => {
    expect(
      accumulate([
        { index: 0, id: 'g1', function: { name: 'search', arguments: '{"q":"a"}' } },
        { index: 0, id: 'g2', function: { name: 'search', arguments: '{"q":"b"}' } },
        { index: 0, id: 'g3', function: { name: 'open', arguments: '{}' } },
      ]),
    ).toEqual([
      { id: 'g1', name: 'search', arguments: '{"q":"a"}' },
      { id: 'g2', name: 'search', arguments: '{"q":"b"}' },
      { id: 'g3', name: 'open', arguments: '{}' },
    ]);
  });

  it('gives id-less calls ids, defaults empty arguments to {}, and makes duplicate ids unique', () => {
    const calls = accumulate([
      { index: 0, function: { name: 'noid' } },
      { index: 1, id: 'dup', function: { name: 'x', arguments: '{}' } },
      { index: 2, id: 'dup', function: { name: 'y', arguments: '{}' } },
    ]);
    expect(calls.map((c) => c.arguments)).toEqual(['{}', '{}', '{}']);
    expect(calls[0]!.id).toBe('call_0');
    expect(new Set(calls.map((c) => c.id)).size).toBe(3);
  });

  it('drops a call that never got a name', () => {
    expect(accumulate([{ index: 0, function: { arguments: '{"orphan":1}' } }])).toEqual([]);
  });

  it('reports how many calls it holds', () => {
    const acc = new ToolCallAccumulator();
    expect(acc.size).toBe(0);
    acc.add({ index: 0, id: 'a', function: { name: 'f' } });
    acc.add({ index: 0, function: { arguments: '{}' } });
    acc.add({ index: 1, id: 'b', function: { name: 'g' } });
    expect(acc.size).toBe(2);
  });
});
