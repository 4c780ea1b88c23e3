import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A view whose code loads on first use. Settings and history are opened rarely; keeping them out
 * of the first bundle keeps the sidebar's cold open fast.
 */
export function lazyView(load: () => Promise<ComponentType>): ComponentType {
  let loaded: ComponentType | undefined;
  return function LazyView() {
    const [View, setView] = useState<ComponentType | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (View) return;
      load().then(
        (component) => {
          loaded = component;
          setView(() => component);
        },
        () => setFailed(true),
      );
    }, [View]);
    if (failed) return <p class="banner" role="alert">This view failed to load. Reopen the sidebar.</p>;
    return View ? <View /> : <p class="muted" role="status">Loading…</p>;
  };
}
