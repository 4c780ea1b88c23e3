/** A measurement, or why it could not be taken: one failed figure must not sink the whole run. */
export type Outcome<T> = T | { error: string };

export function failed<T extends object>(outcome: Outcome<T> | undefined): outcome is { error: string } {
  return outcome !== undefined && 'error' in outcome;
}

export async function attempt<T>(what: string, fn: () => Promise<T>, log: (line: string) => void = console.log): Promise<Outcome<T>> {
  try {
    return await fn();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  ✗ ${what} failed: ${message}`);
    return { error: `${what}: ${message}` };
  }
}
