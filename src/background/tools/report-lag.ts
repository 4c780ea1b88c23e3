/**
 * How late the browser lately reported a request to Jawad after the page started it, ms: a report
 * still to come may take as long. It rises with the machine's load (Firefox, busy, reports a
 * click's request 60 ms and more after the page answered the click) and decays back to the
 * platform's figure, by half every `halfLifeMs`. Pure: times are given.
 */
export class ReportLag {
  #lag: number;
  #notedAt = 0;

  constructor(
    private readonly floorMs: number,
    private readonly maxMs: number,
    private readonly halfLifeMs: number,
  ) {
    this.#lag = floorMs;
  }

  /** How long a report may still take at `now`. */
  at(now: number): number {
    const decayed = this.#lag * 0.5 ** ((now - this.#notedAt) / this.halfLifeMs);
    return Math.max(this.floorMs, Math.round(decayed));
  }

  /** A request was reported `observedMs` after the page started it (or after the browser did). */
  note(observedMs: number, now: number): void {
    this.#lag = Math.min(this.maxMs, Math.max(this.at(now), Math.round(observedMs)));
    this.#notedAt = now;
  }
}
