import { useEffect } from 'react';
import { Popover, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { BudgetLine } from '@atrium/shared/contract/chat-budget';
import { useBudget } from '../api/budget';
import { useChatT } from '../i18n';
import type { ChatKey } from '../locales/zh-cn';

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

/**
 * What is left of the member's and the room's limits (issue 18), under the message box: the
 * tightest one or two in a line, all of them with what is used and held in a popover. Read
 * again whenever an answer ends.
 */
export function BudgetLeft({ roomId, streamingId }: { roomId: number; streamingId?: number }) {
  const t = useChatT();
  const client = useQueryClient();
  const budget = useBudget(roomId, true);
  useEffect(() => {
    void client.invalidateQueries({ queryKey: ['aigc', 'budget', roomId] });
  }, [client, roomId, streamingId]);

  const lines = budget.data?.lines ?? [];
  if (lines.length === 0) return null;
  const sorted = [...lines].sort((a, b) => tightness(a) - tightness(b));
  const describe = (line: BudgetLine) =>
    t(leftKey[line.unit], {
      whose: t(line.scope === 'member' ? 'budget.mine' : 'budget.room'),
      period: t(line.period === 'day' ? 'budget.today' : 'budget.thisMonth'),
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
              resets: new Date(line.resetsAt).toLocaleString(),
            })}
          </Typography.Text>
        </div>
      ))}
    </div>
  );
  const tight = sorted[0];
  return (
    <div className="atrium-budget-row">
      <Popover content={details} title={t('budget.title')} trigger={['hover', 'click']}>
        <Typography.Text
          type={tight && tight.left === 0 ? 'danger' : 'secondary'}
          className="atrium-budget-left"
          data-testid="budget-left"
          tabIndex={0}
        >
          {sorted.slice(0, 2).map(describe).join(' · ')}
        </Typography.Text>
      </Popover>
    </div>
  );
}
