import { describe, expect, it } from 'vitest';
import { ReportLag } from '../../../src/background/tools/report-lag';

describe('ReportLag', () => {
  it('expects reports as late as the platform says until one comes later', () => {
    const lag = new ReportLag(40, 250, 10_000);
    expect(lag.at(1_000)).toBe(40);
    lag.note(12, 1_000);
    expect(lag.at(1_000)).toBe(40);
  });

  it('expects the next report as late as the latest slow one, then less as time passes', () => {
    const lag = new ReportLag(40, 250, 10_000);
    lag.note(160, 1_000);
    expect(lag.at(1_000)).toBe(160);
    // A quick report does not undo a slow one a moment ago: the load that slowed it is still there.
    lag.note(5, 1_100);
    expect(lag.at(1_100)).toBeGreaterThan(150);
    expect(lag.at(11_100)).toBe(80);
    expect(lag.at(60_000)).toBe(40);
  });

  it('never waits longer than its cap, whatever a page claims', () => {
    const lag = new ReportLag(0, 250, 10_000);
    lag.note(60_000, 1_000);
    expect(lag.at(1_000)).toBe(250);
  });
});
