/**
 * Local reasoning models (DeepSeek-R1 distills, QwQ, Qwen3 … behind servers that do not split
 * their output) write their thinking inline: `<think>…</think>answer`. This streaming splitter
 * routes what is inside the tags to the thinking and the rest to the answer. A chunk that might
 * be the start of a tag is held back until it is clearly not.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

export interface ThinkPart {
  kind: 'text' | 'reasoning';
  text: string;
}

/** The length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagAt(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(-length))) return length;
  }
  return 0;
}

export class ThinkTagSplitter {
  private buffer = '';
  private inside = false;
  /** Just left a thought: the answer usually starts with blank lines meant as a separator. */
  private trimStart = false;

  push(chunk: string): ThinkPart[] {
    this.buffer += chunk;
    const parts: ThinkPart[] = [];
    for (;;) {
      const tag = this.inside ? CLOSE : OPEN;
      const at = this.buffer.indexOf(tag);
      if (at === -1) break;
      this.emit(parts, this.buffer.slice(0, at));
      this.buffer = this.buffer.slice(at + tag.length);
      this.inside = !this.inside;
      this.trimStart = !this.inside;
    }
    const keep = partialTagAt(this.buffer, this.inside ? CLOSE : OPEN);
    this.emit(parts, this.buffer.slice(0, this.buffer.length - keep));
    this.buffer = this.buffer.slice(this.buffer.length - keep);
    return parts;
  }

  /** What is left when the stream ends (an unclosed thought stays thinking). */
  end(): ThinkPart[] {
    const parts: ThinkPart[] = [];
    this.emit(parts, this.buffer);
    this.buffer = '';
    return parts;
  }

  private emit(parts: ThinkPart[], raw: string): void {
    const text = !this.inside && this.trimStart ? raw.replace(/^\s+/, '') : raw;
    if (!text) return;
    if (!this.inside) this.trimStart = false;
    parts.push({ kind: this.inside ? 'reasoning' : 'text', text });
  }
}
