/**
 * Waiting for a page to stop changing. After the requests an action set off were answered, the
 * page's own script has yet to put the answer on screen (phpMyAdmin swaps its whole content area
 * in, then fills the navigation tree): the document is read once it holds still for a moment.
 */

/** Calls `onChange` on every change until the returned function stops it. */
export type ChangeWatch = (onChange: () => void) => () => void;

/** True once nothing changed for `quietMs`; false when `maxMs` pass first (a ticking clock, a spinner). */
export function whenQuiet(watch: ChangeWatch, quietMs: number, maxMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let quietTimer: ReturnType<typeof setTimeout>;
    const finish = (quiet: boolean) => {
      clearTimeout(quietTimer);
      clearTimeout(limit);
      stop();
      resolve(quiet);
    };
    const restart = () => {
      clearTimeout(quietTimer);
      quietTimer = setTimeout(() => finish(true), quietMs);
    };
    const limit = setTimeout(() => finish(false), maxMs);
    const stop = watch(restart);
    restart();
  });
}

/** Changes to the document's nodes, text and attributes. */
export function documentChanges(document: Document): ChangeWatch {
  return (onChange) => {
    const observer = new MutationObserver(onChange);
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    return () => observer.disconnect();
  };
}

/** Tells whether the page has an answer for an address, and calls back as answers arrive until stopped. */
export interface AnswerWatch {
  has(url: string): boolean;
  /** When the page started its latest request for the address (ms since the epoch), if it has its answer. */
  startedAt(url: string): number | undefined;
  watch(onAnswer: (url: string) => void): () => void;
}

/**
 * True once the page has the answers to all `urls`; false at maxMs. The browser reports a request
 * answered a moment before the page's script gets it (a busy page, later still): until the page
 * has it, a quiet page only means its script has not run yet.
 */
export function whenReceived(answers: AnswerWatch, urls: readonly string[], maxMs: number): Promise<boolean> {
  const missing = new Set(urls.filter((url) => !answers.has(url)));
  if (missing.size === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (received: boolean) => {
      clearTimeout(limit);
      stop();
      resolve(received);
    };
    const limit = setTimeout(() => finish(false), maxMs);
    const stop = answers.watch((url) => {
      missing.delete(url);
      if (missing.size === 0) finish(true);
    });
  });
}

/** The page's resource timeline: an entry per answer its requests got (it is the page's own, seen from any world). */
export function pageAnswers(performance: Performance): AnswerWatch {
  return {
    has: (url) => performance.getEntriesByName(url, 'resource').length > 0,
    startedAt(url) {
      const latest = performance.getEntriesByName(url, 'resource').at(-1);
      return latest && performance.timeOrigin + latest.startTime;
    },
    watch(onAnswer) {
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) onAnswer(entry.name);
      });
      observer.observe({ type: 'resource' });
      return () => observer.disconnect();
    },
  };
}
