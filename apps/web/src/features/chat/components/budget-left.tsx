import { useEffect, useState } from 'react';
import { Popover, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { BudgetLine, MemberBudget, NextQuestion } from '@atrium/shared/contract/chat-budget';
import { currentLanguage } from '@/lib/i18n';
import { invalidateFresh } from '@/lib/query-client';
import { budgetKeys, useBudget } from '../api/budget';
import { useChatT } from '../i18n';
import type { ChatKey } from '../locales/zh-cn';

/** The draft is judged again once typing pauses this long. */
const DRAFT_PAUSE_MS = 400;

const amount = (line: BudgetLine, value: number) =>
  line.unit === 'cost'
    ? value.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 6 })
    : value.toLocaleString();

/** The tightest limits first: the least left for its size. */
const tightness = (line: BudgetLine) => (line.limit > 0 ? line.left / line.limit : 1);

const leftKey: Record<BudgetLine['unit'], ChatKey> = {
  messages: 'budget.leftMessages',
  tokens: 'budget.leftTokens',
  cost: 'budget.leftCost',
};

/** When a limit resets, in UTC: "00:00 UTC" for a day's, with the date for a month's. */
export function resetTime(at: number, period: NextQuestion['period']): string {
  const time = new Intl.DateTimeFormat(currentLanguage(), {
    timeZone: 'UTC',
    ...(period === 'month' ? { month: 'short', day: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${time} UTC`;
}

/** The value, once it has stayed the same for `ms`. */
function usePaused<T>(value: T, ms: number): T {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return paused;
}

export interface BudgetLeftProps {
  roomId: number;
  /** The open conversation (undefined: a new one). */
  conversationId: number | undefined;
  /** The message box's text and attached images: the question the footer judges. */
  question: string;
  images: number;
  /**
   * Changes whenever an answer starts or ends (its id and status): what is held and used has
   * changed then, whichever way the page learnt of it (the send, the stream, a list reload).
   */
  answers: string;
}

/**
 * Under the message box (issue 18, issue 28 point 5): what the next question can do, "enough
 * for about N more questions" or "not enough for another question; resets at 00:00 UTC", by the
 * server's own reservation computation (the send refuses by the same one); every limit with what
 * is used and held in a popover.
 */
export function BudgetLeft({ roomId, conversationId, question, images, answers }: BudgetLeftProps) {
  const client = useQueryClient();
  const draft = usePaused(question.trim(), DRAFT_PAUSE_MS);
  const budget = useBudget(
    roomId,
    { conversationId: conversationId ?? 0, question: draft, images },
    true,
  );
  useEffect(() => {
    void invalidateFresh(client, { queryKey: budgetKeys.room(roomId) });
  }, [client, roomId, answers]);
  return budget.data ? <BudgetSummary budget={budget.data} /> : null;
}

/**
 * The footer's words for the budget as the server judged the next question: about how many more
 * fit, or none and when the tightest limit resets; every limit in a popover.
 */
export function BudgetSummary({ budget }: { budget: MemberBudget }) {
  const t = useChatT();
  const { lines } = budget;
  if (lines.length === 0) return null;
  const sorted = [...lines].sort((a, b) => tightness(a) - tightness(b));
  const period = (p: BudgetLine['period'] | undefined) =>
    t(p === 'month' ? 'budget.thisMonth' : 'budget.today');
  const describe = (line: BudgetLine) =>
    t(leftKey[line.unit], {
      whose: t(line.scope === 'member' ? 'budget.mine' : 'budget.room'),
      period: period(line.period),
      left: amount(line, line.left),
    });
  const details = (
    <div className="atrium-budget-details" data-testid="budget-details">
      {sorted.map((line) => (
        <div key={`${line.scope}-${line.period}-${line.unit}`}>
          <Typography.Text strong>{describe(line)}</Typography.Text>
          <br />
          <Typography.Text type="secondary">
            {t('budget.detail', {
              used: amount(line, line.used),
              reserved: amount(line, line.reserved),
              limit: amount(line, line.limit),
              resets: resetTime(line.resetsAt, line.period),
            })}
          </Typography.Text>
        </div>
      ))}
    </div>
  );
  const next = budget.next;
  const refused = next?.questions === 0;
  const summary =
    next === undefined || next.questions === null
      ? sorted.slice(0, 2).map(describe).join(' · ')
      : next.questions === 0
        ? t('budget.notEnough', {
            period: period(next.period),
            resets: next.resetsAt === undefined ? '' : resetTime(next.resetsAt, next.period),
          })
        : t(next.questions === 1 ? 'budget.enoughForOne' : 'budget.enoughFor', {
            period: period(next.period),
            n: next.questions.toLocaleString(),
          });
  return (
    <div className="atrium-budget-row">
      <Popover content={details} title={t('budget.title')} trigger={['hover', 'click']}>
        <Typography.Text
          type={refused || sorted[0]?.left === 0 ? 'danger' : 'secondary'}
          className="atrium-budget-left"
          data-testid="budget-left"
          data-questions={next?.questions ?? ''}
          tabIndex={0}
        >
          {summary}
        </Typography.Text>
      </Popover>
    </div>
  );
}
