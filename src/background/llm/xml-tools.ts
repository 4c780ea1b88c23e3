import type { ToolCall, ToolDefinition } from './types';

/**
 * The tool-call format for models whose server rejects native `tools`: the model writes
 *
 *   <tool_call>{"name": "read_page", "arguments": {"maxChars": 2000}}</tool_call>
 *
 * (Hermes-style JSON inside a tag — the format most open models were tuned on) and this module
 * lifts such blocks out of the streamed text.
 */
const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

export function xmlToolInstructions(tools: ToolDefinition[]): string {
  const list = tools
    .map((tool) => `- ${tool.function.name}: ${tool.function.description}\n  parameters (JSON Schema): ${JSON.stringify(tool.function.parameters)}`)
    .join('\n');
  return [
    'You can call tools. To call one, write exactly one block per call, and nothing inside it but JSON:',
    `${OPEN}{"name": "<tool name>", "arguments": {<arguments as JSON>}}${CLOSE}`,
    'After writing your tool calls, stop and wait: the results come back in the next message.',
    'Available tools:',
    list,
  ].join('\n');
}

export interface XmlParseResult {
  /** Text the user should see (tool-call blocks removed). */
  text: string;
  calls: ToolCall[];
}

/** Parses one complete `<tool_call>` body; returns undefined for anything that is not a call. */
export function parseToolCallBody(body: string, index: number): ToolCall | undefined {
  const trimmed = body.trim();
  try {
    const json = JSON.parse(trimmed) as { name?: unknown; arguments?: unknown; parameters?: unknown };
    if (typeof json.name !== 'string' || !json.name) return undefined;
    const args = json.arguments ?? json.parameters ?? {};
    return { id: `xml_call_${index}`, name: json.name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
  } catch {
    // Also accept <name>…</name><arguments>…</arguments>, which some models prefer.
    const name = /<name>\s*([\w.-]+)\s*<\/name>/.exec(trimmed)?.[1];
    if (!name) return undefined;
    const args = /<arguments>([\s\S]*?)<\/arguments>/.exec(trimmed)?.[1]?.trim() || '{}';
    return { id: `xml_call_${index}`, name, arguments: args };
  }
}

/**
 * Streaming splitter: feed text chunks, get back the text that is safe to show now. A chunk that
 * might be the start of `<tool_call>` is held back until it is clearly not.
 */
export class XmlToolCallStream {
  private buffer = '';
  private inside = false;
  private readonly calls: ToolCall[] = [];

  push(chunk: string): string {
    this.buffer += chunk;
    let visible = '';
    for (;;) {
      if (this.inside) {
        const end = this.buffer.indexOf(CLOSE);
        if (end === -1) return visible;
        this.addCall(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + CLOSE.length);
        this.inside = false;
        continue;
      }
      const start = this.buffer.indexOf(OPEN);
      if (start !== -1) {
        visible += this.buffer.slice(0, start);
        this.buffer = this.buffer.slice(start + OPEN.length);
        this.inside = true;
        continue;
      }
      const keep = partialPrefixLength(this.buffer, OPEN);
      visible += this.buffer.slice(0, this.buffer.length - keep);
      this.buffer = this.buffer.slice(this.buffer.length - keep);
      return visible;
    }
  }

  /** Ends the stream: an unterminated block is still parsed if it holds a whole call. */
  end(): XmlParseResult {
    let text = '';
    if (this.inside) {
      const call = parseToolCallBody(this.buffer, this.calls.length);
      if (call) this.calls.push(call);
      else text = OPEN + this.buffer;
    } else {
      text = this.buffer;
    }
    this.buffer = '';
    this.inside = false;
    return { text, calls: [...this.calls] };
  }

  private addCall(body: string): void {
    const call = parseToolCallBody(body, this.calls.length);
    if (call) this.calls.push(call);
  }
}

/** How many trailing characters of `text` could begin `tag`. */
function partialPrefixLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
