// @ts-check
// Splitting a document's text into passages, and the terms that index and search them. Plain
// JavaScript, checked by the compiler (checkJs), so the document reader's thread
// (extract.worker.mjs) runs it as it is: splitting megabytes of text never runs on the event
// loop that serves requests.

/** About this many characters a passage. */
export const PASSAGE_CHARS = 1_000;
/** Characters the next passage repeats, so a sentence cut at the edge is whole in one of them. */
export const PASSAGE_OVERLAP = 150;

/**
 * @typedef {object} Passage
 * @property {number} page 1-based page (PDF), 0 for formats without pages.
 * @property {string} text
 */

/**
 * Where to cut near `end`: after a paragraph, a sentence, or a space, else at `end`.
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {number}
 */
function cutAt(text, start, end) {
  if (end >= text.length) return text.length;
  const window = text.slice(start + Math.floor((end - start) / 2), end);
  const base = start + Math.floor((end - start) / 2);
  for (const pattern of [/\n\s*\n/g, /[.!?。！？;；]\s*/g, /\s+/g]) {
    let last = -1;
    for (const match of window.matchAll(pattern)) last = match.index + match[0].length;
    if (last > 0) return base + last;
  }
  return end;
}

/**
 * A page's (or a whole unpaged document's) text in passages of about PASSAGE_CHARS characters,
 * each overlapping the one before by about PASSAGE_OVERLAP. Whitespace runs are tidied first.
 * @param {string} text
 * @param {number} page
 * @returns {Passage[]}
 */
export function splitPassages(text, page) {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (clean === '') return [];
  /** @type {Passage[]} */
  const passages = [];
  let start = 0;
  for (;;) {
    const end = cutAt(clean, start, start + PASSAGE_CHARS);
    passages.push({ page, text: clean.slice(start, end).trim() });
    if (end >= clean.length) return passages;
    // The next one starts a little before, at a word boundary when there is one.
    let next = Math.max(end - PASSAGE_OVERLAP, start + 1);
    const space = clean.indexOf(' ', next);
    if (space > 0 && space < end) next = space + 1;
    start = next;
  }
}

/** Chinese, Japanese and Korean characters: no spaces between words. */
const wide = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\u3040-\u30FF]/u;
const tokenPattern =
  /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\u3040-\u30FF]+|[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Words that say nothing about a passage: left out of questions, so they rank nothing. */
const stopWords = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into ' +
    'is it its me my of on or our so than that the their them then there these they this to ' +
    'was we were what when where which who whom why will with would you your about please tell ' +
    'explain give show say said also any all some more most other such only own same very just'
  ).split(' '),
);

/**
 * The terms of a text as they are indexed and searched: words in lower case, and runs of CJK
 * characters as overlapping pairs (a lone character stays itself), so "人工智能" is "人工 工智
 * 智能" and a question's "智能" finds it.
 * @param {string} text
 * @returns {string[]}
 */
export function termsOf(text) {
  /** @type {string[]} */
  const terms = [];
  for (const [token] of text.toLowerCase().matchAll(tokenPattern)) {
    if (wide.test(token[0] ?? '')) {
      const chars = [...token];
      if (chars.length === 1) terms.push(token);
      for (let i = 0; i + 1 < chars.length; i++) terms.push(`${chars[i]}${chars[i + 1]}`);
    } else {
      terms.push(token.replace(/['’]/g, ''));
    }
  }
  return terms;
}

/**
 * The indexed form of a passage: its terms, space-separated.
 * @param {string} text
 * @returns {string}
 */
export function indexText(text) {
  return termsOf(text).join(' ');
}

/** Most distinct terms a question searches with (a pasted page must not build a huge query). */
const MAX_QUERY_TERMS = 40;

/**
 * A question's distinct search terms, without stop words and one-letter words.
 * @param {string} question
 * @returns {string[]}
 */
export function queryTerms(question) {
  /** @type {Set<string>} */
  const seen = new Set();
  for (const term of termsOf(question)) {
    if (seen.size >= MAX_QUERY_TERMS) break;
    if (stopWords.has(term)) continue;
    if (term.length < 2 && !wide.test(term)) continue;
    seen.add(term);
  }
  return [...seen];
}
