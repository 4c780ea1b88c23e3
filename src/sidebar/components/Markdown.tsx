import { useLayoutEffect, useRef } from 'preact/hooks';
import { loadImageOnClick, renderMarkdown } from '../markdown';

/** Sanitised markdown, written into the DOM as nodes (never through innerHTML). */
export function Markdown({ text }: { text: string }) {
  const container = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    container.current?.replaceChildren(renderMarkdown(text));
  }, [text]);
  return <div class="markdown" ref={container} onClick={loadImageOnClick} />;
}
