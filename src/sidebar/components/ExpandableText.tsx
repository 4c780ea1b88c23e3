import { useState } from 'preact/hooks';
import { clipText } from '../../protocol';
import { revealHidden } from '../step-format';

interface Props {
  /** Untrusted text from a page: rendered as a text node, with hidden characters shown. */
  text: string;
  /** Characters shown before "Show all". */
  limit: number;
  /** Render inside <pre> (typed text, URLs): whitespace kept, monospace. */
  mono?: boolean;
  class?: string;
}

/**
 * Long page text would push the prompt's buttons out of view, yet the user must be able to read
 * all of it before allowing: show the start, and everything on request.
 */
export function ExpandableText({ text, limit, mono = false, class: className = '' }: Props) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > limit;
  const shown = revealHidden(expanded || !long ? text : clipText(text, limit));
  const Tag = mono ? 'pre' : 'span';
  const Wrapper = mono ? 'div' : 'span';
  return (
    <Wrapper class={`expandable ${className}`}>
      <Tag class={mono ? 'mono-block' : 'untrusted-text'} data-expanded={long ? String(expanded) : undefined}>
        {shown}
      </Tag>
      {long && (
        <button type="button" class="link-button" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </Wrapper>
  );
}
