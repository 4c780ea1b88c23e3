/**
 * Saves a growing value at most once per interval, and never two saves at once, so a streaming
 * answer is journalled often enough to survive the background being stopped, without one database
 * write per token.
 */
export class ThrottledSave<T> {
  private latest: T | undefined;
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly save: (value: T) => Promise<unknown>,
    private readonly intervalMs = 250,
  ) {}

  push(value: T): void {
    this.latest = value;
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, this.intervalMs);
  }

  /** Writes any pending value now and waits for every write to finish. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }

  private write(): Promise<void> {
    if (this.dirty) {
      const value = this.latest as T;
      this.dirty = false;
      this.chain = this.chain.then(() => this.save(value)).then(
        () => undefined,
        () => undefined, // A failed journal write is retried by the next push or the final save.
      );
    }
    return this.chain;
  }
}
