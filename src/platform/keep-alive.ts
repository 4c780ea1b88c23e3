/**
 * While the bridge is on, an alarm every 24 s (Chrome rounds it up to 30 s) keeps the background
 * alive and its WebSocket open — Firefox unloads an idle event page even with a WebSocket open
 * (seen here) — and wakes a background that was stopped anyway (Chrome may stop a worker on
 * update or memory pressure), which then reconnects. The alarms API is the same in both browsers.
 * A research workflow holds it too while it plans or runs: with no sidebar open nothing else would
 * wake a stopped background, and a woken one resumes its unfinished workflows at start-up.
 */
import browser from 'webextension-polyfill';

const KEEP_ALIVE_ALARM = 'jawad-bridge-keep-alive';

/** Who needs the background up (the bridge, a running research workflow): the alarm runs while anyone does. */
const holders = new Set<string>();

export function keepBackgroundAlive(on: boolean, holder = 'bridge'): void {
  if (on) holders.add(holder);
  else holders.delete(holder);
  if (holders.size > 0) void browser.alarms.create(KEEP_ALIVE_ALARM, { periodInMinutes: 0.4 });
  else void browser.alarms.clear(KEEP_ALIVE_ALARM);
}

/** Registered at the top level, so the alarm wakes a stopped background. */
export function onKeepAlive(wake: () => void): void {
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === KEEP_ALIVE_ALARM) wake();
  });
}
