/**
 * The requests an action set off (XHR and fetch), followed until each is answered or fails. An app
 * that loads its next view by script (phpMyAdmin's links, a "Load more" button, a form sent with
 * fetch) is not done when the click is: a snapshot taken at once reads the old view and "Loading…".
 * Pure: the browser's request events are fed in by request-watch.ts.
 */
export class PendingRequests {
  readonly #pending = new Set<string>();
  #fresh = 0;
  #onIdle: Array<() => void> = [];

  started(id: string): void {
    this.#pending.add(id);
    this.#fresh++;
  }

  /** Answered, failed or cancelled. Requests that began before the watch are not followed. */
  ended(id: string): void {
    if (!this.#pending.delete(id) || this.#pending.size > 0) return;
    const waiting = this.#onIdle;
    this.#onIdle = [];
    for (const resolve of waiting) resolve();
  }

  /** How many requests began since the watch did, or since the last wait for them ended. */
  get freshCount(): number {
    return this.#fresh;
  }

  /**
   * A wait for them ended: returns how many were still unanswered. Those are no longer followed
   * (a request that never answers is waited out once, not by every later read).
   */
  settled(): number {
    const unanswered = this.#pending.size;
    this.#pending.clear();
    this.#fresh = 0;
    return unanswered;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** True once none is pending; false when `ms` pass first or the signal aborts. */
  idle(ms: number, signal: AbortSignal): Promise<boolean> {
    if (this.#pending.size === 0) return Promise.resolve(true);
    if (ms <= 0 || signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (idle: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#onIdle = this.#onIdle.filter((waiter) => waiter !== onIdle);
        resolve(idle);
      };
      const onIdle = () => finish(true);
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#onIdle.push(onIdle);
    });
  }
}
