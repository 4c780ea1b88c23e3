import { JawadError } from '../../protocol';

export interface Part {
  transferId: string;
  index: number;
  count: number;
  text: string;
}

const MAX_OPEN_TRANSFERS = 4;

/** Collects the parts of texts sent in pieces; hands each text over once its last part is in. */
export class PartAssembler {
  private readonly open = new Map<string, string[]>();

  /** The whole text when this part completes it, otherwise undefined. */
  add(part: Part): string | undefined {
    if (part.index >= part.count) throw new JawadError('VALIDATION_ERROR', `Part ${part.index} of ${part.count} does not exist.`);
    let parts = this.open.get(part.transferId);
    if (!parts || parts.length !== part.count) {
      if (this.open.size >= MAX_OPEN_TRANSFERS) this.open.delete(this.open.keys().next().value!);
      parts = new Array<string>(part.count);
      this.open.set(part.transferId, parts);
    }
    parts[part.index] = part.text;
    for (let i = 0; i < part.count; i++) if (parts[i] === undefined) return undefined;
    this.open.delete(part.transferId);
    return parts.join('');
  }
}
