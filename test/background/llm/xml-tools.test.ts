import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/background/llm/types';
import { parseToolCallBody, xmlToolInstructions, XmlToolCallStream, type XmlParseResult } from '../../../src/background/llm/xml-tools';

/** A whole reply through the streaming splitter in one chunk. */
function parseXmlToolCalls(text: string): XmlParseResult {
  const stream = new XmlToolCallStream();
  const visible = stream.push(text);
  const rest = stream.end();
  return { text: visible + rest.text, calls: rest.calls };
}

const CALL = '<tool_call>{"name": "read_page", "arguments": {"maxChars": 2000}}</tool_call>';
const SAMPLE = `Let me look. ${CALL}Done <3, a<b and <tool no call`;
const VISIBLE = 'Let me look. Done <3, a<b and <tool no call';
const EXPECTED_CALL = { id: 'xml_call_0', name: 'read_page', arguments: '{"maxChars":2000}' };

/** Feeds the chunks and returns everything the user would see, plus the calls found. */
function run(chunks: string[]): { shown: string[]; text: string; calls: unknown[] } {
  const stream = new XmlToolCallStream();
  const shown = chunks.map((chunk) => stream.push(chunk));
  const rest = stream.end();
  return { shown, text: shown.join('') + rest.text, calls: rest.calls };
}

describe('XmlToolCallStream', () => {
  it('lifts a tool call out of one chunk', () => {
    expect(run([SAMPLE])).toMatchObject({ text: VISIBLE, calls: [EXPECTED_CALL] });
  });

  it('gives the same result for every single split point', () => {
    for (let i = 0; i <= SAMPLE.length; i++) {
      const result = run([SAMPLE.slice(0, i), SAMPLE.slice(i)]);
      expect(result.text, `split at ${i}`).toBe(VISIBLE);
      expect(result.calls, `split at ${i}`).toEqual([EXPECTED_CALL]);
    }
  });

  it('gives the same result for every pair of split points', () => {
    for (let i = 0; i <= SAMPLE.length; i++) {
      for (let j = i; j <= SAMPLE.length; j++) {
        const result = run([SAMPLE.slice(0, i), SAMPLE.slice(i, j), SAMPLE.slice(j)]);
        if (result.text !== VISIBLE || result.calls.length !== 1) {
          expect.fail(`split at ${i},${j}: ${JSON.stringify(result)}`);
        }
      }
    }
  });

  it('never shows any part of the tool-call markup, even one character at a time', () => {
    const result = run([...SAMPLE]);
    expect(result.text).toBe(VISIBLE);
    for (const piece of result.shown) {
      expect(piece).not.toMatch(/tool_call|"name"/);
    }
  });

  it('shows ordinary text at once and holds back only a possible tag start', () => {
    const stream = new XmlToolCallStream();
    expect(stream.push('Hello <')).toBe('Hello ');
    expect(stream.push('b>bold</b>')).toBe('<b>bold</b>');
    expect(stream.push(' <tool_')).toBe(' ');
    expect(stream.push('call>{"name":"x"}')).toBe('');
    expect(stream.push('</tool_call> bye')).toBe(' bye');
    expect(stream.end()).toEqual({ text: '', calls: [{ id: 'xml_call_0', name: 'x', arguments: '{}' }] });
  });

  it('numbers several calls in order', () => {
    const text = 'a<tool_call>{"name":"one","arguments":{}}</tool_call>b<tool_call>{"name":"two","arguments":{"k":"v"}}</tool_call>c';
    expect(parseXmlToolCalls(text)).toEqual({
      text: 'abc',
      calls: [
        { id: 'xml_call_0', name: 'one', arguments: '{}' },
        { id: 'xml_call_1', name: 'two', arguments: '{"k":"v"}' },
      ],
    });
  });

  it('accepts the <name>/<arguments> variant', () => {
    const text = '<tool_call>\n  <name>search</name>\n  <arguments>{"q": "cats"}</arguments>\n</tool_call>';
    expect(parseXmlToolCalls(text).calls).toEqual([{ id: 'xml_call_0', name: 'search', arguments: '{"q": "cats"}' }]);
  });

  it('parses an unterminated block at the end when it holds a whole call', () => {
    expect(run(['Sure. <tool_call>{"name": "read_page", "arguments": {"maxChars": 2000}}'])).toMatchObject({
      text: 'Sure. ',
      calls: [EXPECTED_CALL],
    });
  });

  it('shows an unterminated block that is not a call as plain text', () => {
    expect(run(['Oops <tool_call>{"name": "read_p'])).toMatchObject({ text: 'Oops <tool_call>{"name": "read_p', calls: [] });
  });

  it('shows a held-back partial tag at the end of the stream', () => {
    expect(run(['the end <tool_c'])).toMatchObject({ text: 'the end <tool_c', calls: [] });
  });
});

describe('parseToolCallBody', () => {
  it('accepts "parameters" for "arguments" and keeps string arguments verbatim', () => {
    expect(parseToolCallBody('{"name":"f","parameters":{"a":1}}', 3)).toEqual({ id: 'xml_call_3', name: 'f', arguments: '{"a":1}' });
    expect(parseToolCallBody('{"name":"f","arguments":"{\\"a\\": 1}"}', 0)?.arguments).toBe('{"a": 1}');
  });

  it('returns undefined for anything that is not a named call', () => {
    expect(parseToolCallBody('{"arguments":{}}', 0)).toBeUndefined();
    expect(parseToolCallBody('{"name":""}', 0)).toBeUndefined();
    expect(parseToolCallBody('just words', 0)).toBeUndefined();
  });
});

describe('xmlToolInstructions', () => {
  it('describes the format and every tool with its schema', () => {
    const tools: ToolDefinition[] = [
      { type: 'function', function: { name: 'read_page', description: 'Reads the page', parameters: { type: 'object', properties: { maxChars: { type: 'integer' } } } } },
      { type: 'function', function: { name: 'search', description: 'Searches', parameters: { type: 'object' } } },
    ];
    const text = xmlToolInstructions(tools);
    expect(text).toContain('<tool_call>{"name": "<tool name>", "arguments": {<arguments as JSON>}}</tool_call>');
    expect(text).toContain('- read_page: Reads the page');
    expect(text).toContain('{"type":"object","properties":{"maxChars":{"type":"integer"}}}');
    expect(text).toContain('- search: Searches');
  });
});
