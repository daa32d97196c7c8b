import { describe, expect, it } from 'vitest';
import { PASSAGE_CHARS, PASSAGE_OVERLAP, queryTerms, splitPassages, termsOf } from './passages.mjs';
import { citedNumbers } from './retrieval';

describe('passages', () => {
  it('splits text into passages of about 1,000 characters that overlap, keeping the page', () => {
    const sentences = Array.from({ length: 80 }, (_, i) => `Sentence number ${i} ends here.`);
    const passages = splitPassages(sentences.join(' '), 7);
    expect(passages.length).toBeGreaterThan(2);
    for (const passage of passages) {
      expect(passage.page).toBe(7);
      expect(passage.text.length).toBeLessThanOrEqual(PASSAGE_CHARS);
    }
    // Cut after a sentence, and the next passage repeats the end of the one before.
    expect(passages[0]?.text.endsWith('ends here.')).toBe(true);
    const tail = passages[0]?.text.slice(-PASSAGE_OVERLAP / 2) ?? '';
    expect(passages[1]?.text).toContain(tail.trim());
    // Every sentence is in some passage, whole.
    for (const sentence of sentences)
      expect(passages.some((p) => p.text.includes(sentence))).toBe(true);
    expect(splitPassages('  \n\n ', 1)).toEqual([]);
    expect(splitPassages('short', 0)).toEqual([{ page: 0, text: 'short' }]);
  });

  it('makes terms of words and of CJK character pairs, and questions without stop words', () => {
    expect(termsOf('The Zebra’s river, 2024!')).toEqual(['the', 'zebras', 'river', '2024']);
    expect(termsOf('人工智能的发展')).toEqual(['人工', '工智', '智能', '能的', '的发', '发展']);
    expect(termsOf('是 a')).toEqual(['是', 'a']);
    expect(queryTerms('What is the budget of the 灯塔?')).toEqual(['budget', '灯塔']);
    expect(queryTerms('a b c')).toEqual([]);
  });

  it('reads the numbers an answer cites, only those it was given', () => {
    expect(citedNumbers('See [1], [2, 3] and [3][9]; also [0] and [x].', 4)).toEqual([1, 2, 3]);
    expect(citedNumbers('见[1，2]和[4]', 4)).toEqual([1, 2, 4]);
    expect(citedNumbers('no citations', 3)).toEqual([]);
  });
});
