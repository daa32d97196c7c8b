import { describe, expect, it } from 'vitest';
import { dayWindow } from './day-window';

const days = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10),
  );

describe('the per-day charts window', () => {
  it('labels the last day and at most six days of a 30-day window, evenly spaced', () => {
    const span = dayWindow(days(30));
    expect(span).toMatchObject({ first: '10-01', last: '10-30' });
    expect(span.ticks).toEqual([
      '2026-10-06',
      '2026-10-12',
      '2026-10-18',
      '2026-10-24',
      '2026-10-30',
    ]);
  });

  it('labels every day of a short window, and copes with one day or none', () => {
    expect(dayWindow(days(5)).ticks).toEqual(days(5));
    expect(dayWindow(days(1))).toEqual({ first: '10-01', last: '10-01', ticks: ['2026-10-01'] });
    expect(dayWindow([])).toEqual({ first: '', last: '', ticks: [] });
  });

  it('never labels more days than asked, whatever the length', () => {
    for (let n = 2; n <= 90; n++) {
      for (const max of [2, 4, 6, 8]) {
        const { ticks } = dayWindow(days(n), max);
        expect(ticks.length).toBeLessThanOrEqual(max);
        expect(ticks.at(-1)).toBe(days(n).at(-1));
      }
    }
  });
});
