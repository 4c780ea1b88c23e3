/**
 * Takes the timed samples of the compared sides in alternation (A B, B A, A B, …) rather than all of
 * A then all of B. The machine is small and shared (two cores, other work running): a slow patch
 * then slows both sides alike instead of skewing their ratio, and the alternating order cancels any
 * advantage of going first.
 */

export interface Sampler {
  label: string;
  /** Takes one timed sample and keeps it. */
  sample(): Promise<void>;
  /**
   * Set when a sample failed: that side stops, the others go on. (Not `error`: an object with an
   * `error` key reads as a failed outcome in bench-snapshot.ts.)
   */
  failure?: string;
}

export async function interleave(samplers: readonly Sampler[], runs: number): Promise<void> {
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? samplers : [...samplers].reverse();
    for (const sampler of order) {
      if (sampler.failure !== undefined) continue;
      try {
        await sampler.sample();
      } catch (error) {
        sampler.failure = `${sampler.label}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }
}
