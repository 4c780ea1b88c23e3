/**
 * A value read from storage once and kept until its one writer says it changed: for what is read
 * on every step or model call (Harbor's policy, budgets, request shapes) and written rarely, by
 * the background alone. A failed read is not kept.
 */
export class Kept<T> {
  private value: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    const value = (this.value ??= this.read());
    value.catch(() => {
      if (this.value === value) this.value = undefined;
    });
    return value;
  }

  /** Runs a write, and forgets the kept value once it has landed or failed half-way. */
  async change<R>(write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } finally {
      this.value = undefined;
    }
  }
}
