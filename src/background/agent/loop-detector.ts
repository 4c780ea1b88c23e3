/** Notices an agent going round in circles: the same failing call again and again, or one call repeated without end. */
export const MAX_SAME_FAILURES = 3;
export const MAX_IDENTICAL_IN_A_ROW = 4;

/** Parameters in a canonical order, so {a,b} and {b,a} are the same call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, inner]) => inner !== undefined).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export class LoopDetector {
  private readonly failures = new Map<string, number>();
  private lastCall = '';
  private inARow = 0;

  /** Records a finished call; returns why the task should stop, or undefined to go on. */
  record(tool: string, params: unknown, success: boolean): string | undefined {
    const call = `${tool} ${canonical(params)}`;
    this.inARow = call === this.lastCall ? this.inARow + 1 : 1;
    this.lastCall = call;
    if (!success) {
      const failures = (this.failures.get(call) ?? 0) + 1;
      this.failures.set(call, failures);
      if (failures >= MAX_SAME_FAILURES) return `${tool} failed ${failures} times with the same parameters.`;
    }
    if (this.inARow >= MAX_IDENTICAL_IN_A_ROW) return `${tool} was called ${this.inARow} times in a row with the same parameters.`;
    return undefined;
  }
}
