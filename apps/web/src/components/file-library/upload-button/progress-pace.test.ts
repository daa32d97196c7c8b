import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressPace } from './progress-pace';

describe('progressPace', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => {
    const drawn: number[] = [];
    const pace = progressPace<number>(
      100,
      (v) => drawn.push(v),
      () => Date.now(),
    );
    return { drawn, pace };
  };

  it('draws the first value at once and the latest of a burst once the interval has passed', () => {
    const { drawn, pace } = setup();
    pace.push(1);
    pace.push(2);
    pace.push(3);
    expect(drawn).toEqual([1]);
    vi.advanceTimersByTime(99);
    expect(drawn).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(drawn).toEqual([1, 3]);
    vi.advanceTimersByTime(500);
    expect(drawn).toEqual([1, 3]);
  });

  it('draws at once when the last draw is old enough, or when urgent', () => {
    const { drawn, pace } = setup();
    pace.push(1);
    vi.advanceTimersByTime(150);
    pace.push(2);
    expect(drawn).toEqual([1, 2]);
    pace.push(3, true);
    expect(drawn).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(500);
    expect(drawn).toEqual([1, 2, 3]);
  });

  it('draws nothing kept once cancelled', () => {
    const { drawn, pace } = setup();
    pace.push(1);
    pace.push(2);
    pace.cancel();
    vi.advanceTimersByTime(500);
    expect(drawn).toEqual([1]);
  });
});
