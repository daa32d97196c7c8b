import { describe, expect, it } from 'vitest';
import { randomId, randomString } from './random';

describe('random', () => {
  it('makes 10-character ids of letters and digits', () => {
    expect(randomId()).toMatch(/^[A-Za-z0-9]{10}$/);
  });

  it('makes 32-character strings by default and any length on request', () => {
    expect(randomString()).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(randomString(100)).toHaveLength(100);
  });

  it('does not repeat itself', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => randomId()));
    expect(seen.size).toBe(1000);
  });

  it('uses the whole alphabet', () => {
    const chars = new Set(randomString(20_000));
    expect(chars.size).toBe(62);
  });
});
