import { describe, expect, it } from 'vitest';
import { fillDays } from './usage-panel';

describe('fillDays', () => {
  it('has every day of the range, with zeros where nothing was used', () => {
    const days = fillDays('2026-11-20', '2026-11-23', [
      {
        day: '2026-11-21',
        messages: 3,
        promptTokens: 10,
        completionTokens: 5,
        tokens: 15,
        cost: 0.25,
      },
    ]);
    expect(days.map((d) => [d.day, d.messages])).toEqual([
      ['2026-11-20', 0],
      ['2026-11-21', 3],
      ['2026-11-22', 0],
      ['2026-11-23', 0],
    ]);
  });
});
