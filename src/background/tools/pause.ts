/** Resolves after `ms`, or at once when the signal fires (the user stopped, the tool's time is up). */
export const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });
