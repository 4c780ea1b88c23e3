import type { ToolCall } from './types';

interface ToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/**
 * Rebuilds OpenAI-style tool calls from streamed deltas. OpenAI sends the id and name first and the
 * arguments in fragments keyed by `index`; Ollama and some others send each call whole in one
 * delta, sometimes without an index. Both end up as complete calls in order.
 */
export class ToolCallAccumulator {
  /** Keyed by slot; slots keep the order the calls started in. */
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();
  private lastSlot = -1;

  add(delta: ToolCallDelta): void {
    const slot = this.slotFor(delta);
    const current = this.calls.get(slot) ?? { id: '', name: '', arguments: '' };
    if (delta.id) current.id = delta.id;
    if (delta.function?.name && !current.name) current.name = delta.function.name;
    if (delta.function?.arguments) current.arguments += delta.function.arguments;
    this.calls.set(slot, current);
    this.lastSlot = slot;
  }

  /**
   * A delta that names a new id starts a new call even when the server reuses an index (Gemini
   * sends several whole calls at index 0); a delta with neither index nor id continues the last.
   */
  private slotFor(delta: ToolCallDelta): number {
    const startsCall = Boolean(delta.id || delta.function?.name);
    if (delta.index === undefined) return startsCall || this.lastSlot < 0 ? this.nextFreeSlot() : this.lastSlot;
    const slot = delta.index * 1000;
    let probe = slot;
    while (startsCall && delta.id && this.calls.get(probe)?.id && this.calls.get(probe)?.id !== delta.id) probe++;
    if (!startsCall && probe === slot && this.lastSlot >= slot && this.lastSlot < slot + 1000) return this.lastSlot;
    return probe;
  }

  private nextFreeSlot(): number {
    const used = [...this.calls.keys()];
    return used.length === 0 ? 0 : Math.max(...used) + 1000;
  }

  get size(): number {
    return this.calls.size;
  }

  /** The finished calls in the order they started; a call the model gave no id gets one. */
  finish(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, call]) => call.name)
      .map(([, call], position) => ({
        id: call.id || `call_${position}`,
        name: call.name,
        arguments: call.arguments || '{}',
      }))
      .map((call, position, all) => (all.findIndex((other) => other.id === call.id) === position ? call : { ...call, id: `${call.id}_${position}` }));
  }
}
