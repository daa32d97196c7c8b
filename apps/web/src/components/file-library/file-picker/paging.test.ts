import { describe, expect, it } from 'vitest';
import { pageToShow } from './paging';

const answer = (page: number, total: number, records: number) => ({
  page,
  pageSize: 10,
  total,
  records: Array.from({ length: records }, (_, i) => i),
});

describe('pageToShow', () => {
  it('sends an empty page past the end to the last page there is', () => {
    // Every file of page 2 moved away: 6 left, all on page 1.
    expect(pageToShow(answer(2, 6, 0))).toBe(1);
    expect(pageToShow(answer(5, 21, 0))).toBe(3);
    expect(pageToShow(answer(4, 30, 0))).toBe(3);
  });

  it('leaves a page with files, an empty library and a page not past the end alone', () => {
    expect(pageToShow(answer(2, 16, 6))).toBeUndefined();
    expect(pageToShow(answer(1, 0, 0))).toBeUndefined();
    expect(pageToShow(answer(3, 0, 0))).toBeUndefined();
    expect(pageToShow(answer(1, 4, 0))).toBeUndefined();
    expect(pageToShow(undefined)).toBeUndefined();
  });
});
