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
