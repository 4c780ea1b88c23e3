/**
 * Waits for the machine to go quiet before a page's timed snapshots. Each side opens its page just
 * before the samples, and whatever a browser still does after a load (decoding, failed requests to
 * the dead hosts, garbage collection) lands on the other side's first samples: on nytimes.com
 * Jawad's first three took 47, 37, 36 ms right after Playwright's load and 10–17 ms once it was
 * done. The condition is the cores' own idle time, so a busy machine waits at most `limitMs`.
 */
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** All cores' idle and total CPU time so far (ms). */
export interface CpuTimes {
  idle: number;
  total: number;
}

/** How long a busy machine is waited for before the samples are taken anyway. */
export const QUIET_LIMIT_MS = 3_000;

function cpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

export interface QuietOptions {
  /** The share of the cores' time that must be idle in one window: 0.85 of two cores is under a third of one busy. */
  idleShare?: number;
  windowMs?: number;
  limitMs?: number;
  /** Where the CPU times come from (a test gives its own). */
  times?: () => CpuTimes;
}

/** True once one `windowMs` window was quiet; false when none was within `limitMs`. */
export async function untilQuiet({ idleShare = 0.85, windowMs = 100, limitMs = QUIET_LIMIT_MS, times = cpuTimes }: QuietOptions = {}): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  let before = times();
  while (Date.now() < deadline) {
    await sleep(windowMs);
    const now = times();
    const total = now.total - before.total;
    if (total > 0 && (now.idle - before.idle) / total >= idleShare) return true;
    before = now;
  }
  return false;
}
