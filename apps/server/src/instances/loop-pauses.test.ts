import { describe, expect, it } from 'vitest';
import { LoopPauses } from './loop-pauses';

describe('LoopPauses', () => {
  const make = () => {
    let at = 0;
    const pauses = new LoopPauses(1_000, 3_000, () => at);
    const to = (ms: number) => (at = ms);
    /** The timer turns at each of `ats`; after each turn, `expected` ms are granted. */
    const turnsAt = (ats: number[], expected: number) => {
      for (const ms of ats) {
        to(ms);
        pauses.turn();
        expect(pauses.recentMs()).toBe(expected);
      }
    };
    return { pauses, to, turnsAt };
  };

  it('counts nothing before its timer starts, nor for turns on time or late by less than a turn', () => {
    const { pauses, to, turnsAt } = make();
    to(10_000);
    expect(pauses.recentMs()).toBe(0);
    turnsAt([10_000, 11_000, 12_000, 13_900, 14_950], 0);
  });

  it('counts a pause under way before its timer has turned, then keeps it for its time after it ended', () => {
    const { pauses, to, turnsAt } = make();
    pauses.turn();
    // Paused 5 s: whoever runs first after it asks before the overdue timer turns.
    to(6_000);
    expect(pauses.recentMs()).toBe(5_000);
    pauses.turn();
    expect(pauses.recentMs()).toBe(5_000);
    // Turning on time again, the pause is still granted until `keepMs` after it ended...
    turnsAt([7_000, 8_000, 8_999], 5_000);
    // ...and no longer.
    turnsAt([9_000], 0);
  });

  it('grants the longest recent pause, and nothing once stopped', () => {
    const { pauses, to } = make();
    pauses.turn();
    to(4_500);
    pauses.turn();
    to(7_000);
    pauses.turn();
    // 3.5 s, then 1.5 s: the first still counts, and is the longer.
    expect(pauses.recentMs()).toBe(3_500);
    pauses.stop();
    to(20_000);
    expect(pauses.recentMs()).toBe(0);
  });
});
