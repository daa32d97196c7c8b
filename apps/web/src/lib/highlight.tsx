import type { ReactNode } from 'react';

/**
 * Splits `text` around every case-insensitive occurrence of `keyword` and wraps the matches in
 * <mark>. Both strings only ever become text nodes, so neither can inject markup.
 */
function highlight(text: string, keyword: string | undefined | null): ReactNode[] {
  const needle = (keyword ?? '').trim();
  if (!needle) return [text];
  const lowerText = text.toLowerCase();
  const lowerNeedle = needle.toLowerCase();
  // Lower-casing changes the length of a few characters; offsets would then be wrong, so such
  // texts are shown without marks rather than with marks in the wrong place.
  if (lowerText.length !== text.length || lowerNeedle.length !== needle.length) return [text];
  const nodes: ReactNode[] = [];
  let from = 0;
  let at = lowerText.indexOf(lowerNeedle, from);
  while (at !== -1) {
    if (at > from) nodes.push(text.slice(from, at));
    nodes.push(
      <mark key={at} className="atrium-highlight">
        {text.slice(at, at + needle.length)}
      </mark>,
    );
    from = at + needle.length;
    at = lowerText.indexOf(lowerNeedle, from);
  }
  if (from < text.length) nodes.push(text.slice(from));
  return nodes;
}

export function Highlight({ text, keyword }: { text: string; keyword?: string | null }) {
  return <>{highlight(text, keyword)}</>;
}
