/**
 * Runs read-modify-writes of stored state one after another, so that none writes over another's
 * change (two clicks at once, two grants at once). A failed one does not hold up the next.
 */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.last.then(work);
    this.last = result.catch(() => undefined);
    return result;
  }
}
