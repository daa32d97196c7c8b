import type { ServerResponse } from 'node:http';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetLine, MemberBudget } from '@atrium/shared/contract/chat-budget';
import { useApiStore } from '@/stores/api-store';
import { setLanguage } from '@/lib/i18n';
import { sendJson, startLocalServer } from '@/test-utils/local-server';
import { renderWithFreshCache } from '@/test-utils/render';
import { BudgetLeft, BudgetSummary, resetTime } from './budget-left';

afterEach(() => {
  cleanup();
  act(() => setLanguage('zh-CN'));
});

const DAY_END = Date.UTC(2026, 10, 28);
const MONTH_END = Date.UTC(2026, 11, 1);

const line = (over: Partial<BudgetLine>): BudgetLine => ({
  scope: 'member',
  period: 'day',
  unit: 'messages',
  limit: 10,
  used: 9,
  reserved: 0,
  left: 1,
  resetsAt: DAY_END,
  ...over,
});

/** The footer: one question left by count, a cost too little for it. */
const lines = [
  line({}),
  line({ unit: 'cost', limit: 0.01, used: 0.0036, left: 0.0064 }),
  line({ scope: 'room', unit: 'tokens', limit: 600, used: 150, left: 450 }),
];

const footer = (budget: MemberBudget) => {
  renderWithFreshCache(<BudgetSummary budget={budget} />);
  return screen.getByTestId('budget-left');
};

describe('the budget footer', () => {
  it('says about how many more questions fit, in both languages', () => {
    const budget: MemberBudget = {
      lines,
      next: { questions: 3, scope: 'room', period: 'day', resetsAt: DAY_END },
    };
    expect(footer(budget)).toHaveTextContent(/^今日还够约 3 次提问$/);
    cleanup();
    act(() => setLanguage('en'));
    expect(footer(budget)).toHaveTextContent(/^Enough for about 3 more questions today$/);
    cleanup();
    expect(
      footer({ lines, next: { questions: 1, period: 'month', resetsAt: MONTH_END } }),
    ).toHaveTextContent(/^Enough for about 1 more question this month$/);
  });

  it('never says a question is left when the next one is refused: it says when the limit resets', () => {
    const refused: MemberBudget = {
      lines,
      next: { questions: 0, scope: 'member', period: 'day', resetsAt: DAY_END },
    };
    const zh = footer(refused);
    expect(zh).toHaveTextContent(/^今日额度已不够再提问，将于 00:00 UTC 重置$/);
    expect(zh.textContent).not.toMatch(/还可提问|还可用|余额/);
    expect(zh).toHaveAttribute('data-questions', '0');
    cleanup();
    act(() => setLanguage('en'));
    expect(footer(refused)).toHaveTextContent(
      /^Not enough for another question today; resets at 00:00 UTC$/,
    );
    cleanup();
    expect(
      footer({
        lines,
        next: { questions: 0, scope: 'room', period: 'month', resetsAt: MONTH_END },
      }),
    ).toHaveTextContent(/^Not enough for another question this month; resets at Dec 1, 00:00 UTC$/);
  });

  it('a month limit resets at a date in UTC, whatever the browser’s zone', () => {
    act(() => setLanguage('zh-CN'));
    expect(resetTime(DAY_END, 'day')).toBe('00:00 UTC');
    expect(resetTime(MONTH_END, 'month')).toBe('12月1日 00:00 UTC');
  });

  it('without an estimate (no limit counts questions) it lists the tightest limits', () => {
    expect(footer({ lines: [lines[2] as BudgetLine] })).toHaveTextContent(
      /^本聊天室今日还可用 450 tokens$/,
    );
    cleanup();
    renderWithFreshCache(<BudgetSummary budget={{ lines: [] }} />);
    expect(screen.queryByTestId('budget-left')).toBeNull();
  });
});

describe('the budget footer as answers start and end', () => {
  it('reads the budgets again after an answer ends, even while a read from before is still under way', async () => {
    // The room's 600 tokens a day: 126 held while the answer streams, 150 used once it ended.
    const held = line({
      scope: 'room',
      unit: 'tokens',
      limit: 600,
      used: 0,
      reserved: 126,
      left: 474,
    });
    const settled = line({ scope: 'room', unit: 'tokens', limit: 600, used: 150, left: 450 });
    let now = held;
    const slow: ServerResponse[] = [];
    const server = await startLocalServer((_req, res) => {
      const answer = { code: 0, msg: '', data: { lines: [now] } };
      // The first read is answered late, with what it read before the answer ended.
      if (slow.length === 0) {
        slow.push(res);
        setTimeout(() => sendJson(res, answer), 300);
      } else sendJson(res, answer);
    });
    useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
    try {
      const props = { roomId: 1, conversationId: 5, question: '', images: 0 };
      const view = renderWithFreshCache(<BudgetLeft {...props} answers="5:9:streaming" />);
      await waitFor(() => expect(server.requests).toHaveLength(1));
      now = settled;
      view.rerender(<BudgetLeft {...props} answers="5:9:done" />);
      await waitFor(() =>
        expect(screen.getByTestId('budget-left')).toHaveTextContent(
          '本聊天室今日还可用 450 tokens',
        ),
      );
      expect(server.requests.length).toBeGreaterThanOrEqual(2);
      // The late answer from before the end does not come back over it.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(screen.getByTestId('budget-left')).toHaveTextContent('本聊天室今日还可用 450 tokens');
    } finally {
      await server.close();
    }
  });
});
