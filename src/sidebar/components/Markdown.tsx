import { useLayoutEffect, useRef, useState } from 'preact/hooks';

type Renderer = typeof import('../markdown');

let renderer: Renderer | undefined;
let loading: Promise<Renderer> | undefined;

/**
 * marked + DOMPurify are a third of the sidebar's code and an empty chat needs neither, so they
 * load just after the first render instead of before it.
 */
export function loadMarkdownRenderer(): Promise<Renderer> {
  loading ??= import('../markdown').then((module) => (renderer = module));
  return loading;
}

/** Sanitised markdown, written into the DOM as nodes (never through innerHTML). */
export function Markdown({ text }: { text: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(renderer !== undefined);
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    if (renderer) {
      element.replaceChildren(renderer.renderMarkdown(text));
      return;
    }
    element.textContent = text; // plain text until the renderer arrives: safe, and readable
    void loadMarkdownRenderer().then(() => setReady(true));
  }, [text, ready]);
  return <div class="markdown" dir="auto" ref={container} onClick={(event) => void renderer?.loadImageOnClick(event)} />;
}
