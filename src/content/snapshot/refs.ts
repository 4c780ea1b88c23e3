import { JawadError } from '../../protocol/errors';

/**
 * Refs (e1, e2, …) that stay the same for an element across snapshots for as long as it lives.
 * The map lives in the content script's isolated world, which persists between injections.
 */
export class RefRegistry {
  private readonly byElement = new WeakMap<Element, string>();
  private readonly byRef = new Map<string, WeakRef<Element>>();
  private next = 1;
  /** The refs the latest snapshot listed: what "highlight everything" outlines. */
  private listed: readonly string[] = [];
  /** The element last clicked: a popup that opens with no ARIA link to it is taken to be its. */
  private clicked: WeakRef<Element> | undefined;

  constructor(private readonly prefix = '') {}

  refFor(element: Element): string {
    let ref = this.byElement.get(element);
    if (!ref) {
      ref = `${this.prefix}e${this.next++}`;
      this.byElement.set(element, ref);
      this.byRef.set(ref, new WeakRef(element));
    }
    return ref;
  }

  rememberListed(refs: readonly string[]): void {
    this.listed = refs;
  }

  lastListed(): readonly string[] {
    return this.listed;
  }

  noteClicked(element: Element): void {
    this.clicked = new WeakRef(element);
  }

  lastClicked(): Element | undefined {
    const element = this.clicked?.deref();
    return element?.isConnected ? element : undefined;
  }

  /** The live element of a ref; STALE_REF when it was removed, never another element. */
  resolve(ref: string): Element {
    const element = this.byRef.get(ref)?.deref();
    if (!element || !element.isConnected) {
      throw new JawadError('STALE_REF', `${ref} is no longer on the page. Take a new snapshot.`);
    }
    return element;
  }
}
