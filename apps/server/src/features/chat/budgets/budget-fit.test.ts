import { describe, expect, it } from 'vitest';
import { costOf, fitNext, MIN_ANSWER_TOKENS, type CounterState, type Need } from './budget-fit';

/**
 * Issue 28, point 5: one computation says whether the next question fits (the send refuses by it)
 * and about how many more would (the footer says so), so "1 left" never stands beside a refusal.
 */

const counter = (
  limits: Partial<CounterState['limits']>,
  used: Partial<CounterState['used']> = {},
  reserved: Partial<CounterState['reserved']> = {},
  scope: CounterState['scope'] = 'member',
  period: CounterState['period'] = 'day',
): CounterState => ({
  scope,
  period,
  limits: { messages: 0, tokens: 0, cost: 0, ...limits },
  used: { messages: 0, tokens: 0, cost: 0, ...used },
  reserved: { tokens: 0, cost: 0, ...reserved },
});

const need: Need = {
  promptTokens: 100,
  answerTokens: 400,
  promptPrice: 2_000_000,
  completionPrice: 8_000_000,
};

describe('fitNext', () => {
  it('no limit: the answer keeps its max_tokens and nothing is counted', () => {
    expect(fitNext([counter({})], need)).toEqual({ answerTokens: 400, questions: null });
  });

  it('counts questions left of a message limit', () => {
    expect(fitNext([counter({ messages: 5 }, { messages: 3 })], need)).toMatchObject({
      questions: 2,
      answerTokens: 400,
      tightest: { scope: 'member', period: 'day' },
    });
    expect(fitNext([counter({ messages: 5 }, { messages: 5 })], need)).toMatchObject({
      questions: 0,
      breach: { unit: 'messages', limit: 5, left: 0 },
    });
  });

  it('counts whole reservations of a token limit, the last one lowered to what is left', () => {
    // 500 per question: 1,300 holds two whole ones and a third of 300 (100 of prompt, 200 of answer).
    const fit = fitNext([counter({ tokens: 2_000 }, { tokens: 600 }, { tokens: 100 })], need);
    expect(fit).toMatchObject({ questions: 3, answerTokens: 400 });
    // What is left is too little for the prompt and a useful answer: refused, with what is left.
    const tight = fitNext(
      [counter({ tokens: 1_000 }, { tokens: 1_000 - (100 + MIN_ANSWER_TOKENS - 1) })],
      need,
    );
    expect(tight).toMatchObject({
      questions: 0,
      breach: { unit: 'tokens', limit: 1_000, left: 100 + MIN_ANSWER_TOKENS - 1 },
    });
    const justEnough = fitNext(
      [counter({ tokens: 1_000 }, { tokens: 1_000 - (100 + MIN_ANSWER_TOKENS) })],
      need,
    );
    expect(justEnough).toMatchObject({ questions: 1, answerTokens: MIN_ANSWER_TOKENS });
    expect(justEnough.breach).toBeUndefined();
  });

  it("the issue's case: one question left by count, but the cost left is too little for it", () => {
    // 0.0064 left of the day's cost; the question's prompt alone costs 0.0002, its answer 0.0032.
    const costly: Need = { ...need, promptTokens: 100, answerTokens: 400 };
    const fullCost = costOf(100, costly.promptPrice) + costOf(400, costly.completionPrice);
    expect(fullCost).toBe(3_400);
    const fit = fitNext(
      [counter({ messages: 10, cost: 10_000 }, { messages: 9, cost: 10_000 - 6_400 })],
      costly,
    );
    expect(fit).toMatchObject({ questions: 1 });
    const poor = fitNext(
      [counter({ messages: 10, cost: 10_000 }, { messages: 9, cost: 10_000 - 150 })],
      costly,
    );
    expect(poor).toMatchObject({ questions: 0, breach: { unit: 'cost', left: 150 } });
  });

  it('the tightest of the member and the room decides; a later counter can refuse', () => {
    const fit = fitNext(
      [
        counter({ tokens: 100_000 }),
        counter({ tokens: 1_020 }, { tokens: 0 }, {}, 'room', 'day'),
        counter({ tokens: 1_000_000 }, {}, {}, 'room', 'month'),
      ],
      { ...need, promptTokens: 1_010 },
    );
    expect(fit).toMatchObject({
      questions: 0,
      breach: { scope: 'room', period: 'day', unit: 'tokens', left: 1_020 },
      tightest: { scope: 'room', period: 'day' },
    });
    const roomy = fitNext(
      [counter({ tokens: 100_000 }), counter({ tokens: 1_650 }, {}, {}, 'room', 'month')],
      need,
    );
    expect(roomy).toMatchObject({ questions: 4, tightest: { scope: 'room', period: 'month' } });
  });

  it('says at least one question exactly when the question fits, whatever is left', () => {
    for (let left = 0; left <= 3_000; left += 7) {
      for (const [tokens, cost] of [
        [left, 0],
        [0, left],
        [left, left * 4],
      ] as const) {
        const fit = fitNext([counter({ messages: 3, tokens, cost }, { messages: 2 })], {
          ...need,
          promptTokens: 50 + (left % 300),
        });
        expect(fit.questions === null || fit.questions >= 1).toBe(fit.breach === undefined);
        expect(fit.questions === 0).toBe(fit.breach !== undefined);
        if (!fit.breach) expect(fit.answerTokens).toBeGreaterThanOrEqual(MIN_ANSWER_TOKENS);
      }
    }
  });

  it('a free model never runs out of a cost limit', () => {
    const free = { ...need, promptPrice: 0, completionPrice: 0 };
    expect(fitNext([counter({ cost: 10 }, { cost: 10 })], free)).toMatchObject({
      questions: null,
      answerTokens: 400,
    });
  });
});
