import type { MatchRange } from '@atrium/shared/contract/chat-search';

/**
 * Excerpts of messages for the chat's searches (in a room's conversations, and over all of a
 * member's): markdown read as prose on one line, cut around the first match.
 */

/** Characters of context on each side of the first match in an excerpt. */
const EXCERPT_CONTEXT = 40;

/** Markdown read as prose, on one line: fences, `code`, **bold** and # headings left out. */
function flatten(text: string): string {
  return text
    .replace(/^\s{0,3}(?:#{1,6}\s+|```\S*)/gm, '')
    .replace(/`+|\*+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place in `text` one of `words` occurs (any case), sorted, neighbouring ones merged. */
export function matchRanges(text: string, words: readonly string[]): MatchRange[] {
  const found: MatchRange[] = [];
  for (const word of words) {
    if (word === '') continue;
    for (const m of text.matchAll(new RegExp(escapeRegExp(word), 'giu')))
      found.push([m.index, m.index + m[0].length]);
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: MatchRange[] = [];
  for (const range of found) {
    const last = merged.at(-1);
    // Overlapping, touching or only spaces apart ("brand new"): one mark.
    if (last && (range[0] <= last[1] || /^\s+$/.test(text.slice(last[1], range[0]))))
      last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * The text around the first match, on one line, "…" where it was cut, and where the words are in
 * it. Cuts never split a surrogate pair.
 */
export function excerptWithRanges(
  text: string,
  words: readonly string[],
): { excerpt: string; ranges: MatchRange[] } {
  const flat = flatten(text);
  const all = matchRanges(flat, words);
  const first = all[0];
  const isLow = (at: number) => /[\udc00-\udfff]/.test(flat[at] ?? '');
  let start = first ? Math.max(0, first[0] - EXCERPT_CONTEXT) : 0;
  let end = first
    ? Math.min(flat.length, first[1] + EXCERPT_CONTEXT)
    : Math.min(flat.length, 2 * EXCERPT_CONTEXT);
  if (start > 0 && isLow(start)) start -= 1;
  if (end < flat.length && isLow(end)) end += 1;
  const lead = start > 0 ? '…' : '';
  const excerpt = `${lead}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
  const ranges = all
    .filter(([from, to]) => from >= start && to <= end)
    .map(([from, to]): MatchRange => [from - start + lead.length, to - start + lead.length]);
  return { excerpt, ranges };
}
