import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { finishedMessage } from '@atrium/shared/testing/messages';
import { setLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/test-utils/render';
import { MessageBubble } from './message-bubble';

const answer = (fields: Partial<MessageRecord>): MessageRecord => ({
  id: 12,
  conversationId: 1,
  role: 'assistant',
  content: 'An answer',
  ...finishedMessage(),
  ...fields,
});

function show(message: MessageRecord, extra: { busy?: boolean; versionFocus?: boolean } = {}) {
  const onShowVersion = vi.fn();
  const { unmount } = renderWithProviders(
    <MessageBubble
      message={message}
      isLast
      busy={extra.busy ?? false}
      onStop={() => undefined}
      onRegenerate={() => undefined}
      onEdit={() => Promise.resolve(true)}
      onShowVersion={onShowVersion}
      versionFocus={extra.versionFocus ?? false}
    />,
  );
  return Object.assign(onShowVersion, { unmount });
}

describe('‹ n / m › on a regenerated answer', () => {
  it('says which version is shown and switches to the one before or after it', async () => {
    act(() => setLanguage('en'));
    const onShowVersion = show(answer({ id: 12, versions: [10, 12, 15] }));
    const group = screen.getByRole('group', { name: 'Versions of this answer' });
    expect(within(group).getByText('2 / 3')).toHaveAttribute('aria-live', 'polite');
    await userEvent.click(within(group).getByRole('button', { name: 'Previous version' }));
    expect(onShowVersion).toHaveBeenLastCalledWith(10);
    await userEvent.click(within(group).getByRole('button', { name: 'Next version' }));
    expect(onShowVersion).toHaveBeenLastCalledWith(15);
  });

  it('names its controls in Chinese, and offers no way past the first or the last', async () => {
    act(() => setLanguage('zh-CN'));
    const onShowVersion = show(answer({ id: 10, versions: [10, 12] }));
    const group = screen.getByRole('group', { name: '回答的各个版本' });
    expect(within(group).getByText('1 / 2')).toBeInTheDocument();
    expect(within(group).getByRole('button', { name: '上一版本' })).toBeDisabled();
    const next = within(group).getByRole('button', { name: '下一版本' });
    next.focus();
    await userEvent.keyboard('{Enter}');
    expect(onShowVersion).toHaveBeenCalledWith(12);
  });

  it('is locked while an answer is being written, and absent for an answer written once', () => {
    act(() => setLanguage('en'));
    const streaming = show(
      answer({ id: 12, versions: [10, 12, 15], status: 'streaming', content: '' }),
      { busy: true },
    );
    const group = screen.getByRole('group', { name: 'Versions of this answer' });
    for (const button of within(group).getAllByRole('button')) expect(button).toBeDisabled();
    streaming.unmount();
    show(answer({ id: 20 }));
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.queryByText(/\d \/ \d/)).toBeNull();
  });

  it('takes the focus on the version just shown, so "n / m" is read out', () => {
    act(() => setLanguage('en'));
    show(answer({ id: 15, versions: [10, 12, 15] }), { versionFocus: true });
    expect(screen.getByText('3 / 3')).toHaveFocus();
  });

  it('names the versions of an edited question as the question’s', () => {
    act(() => setLanguage('en'));
    show(answer({ id: 3, role: 'user', versions: [1, 3] }));
    expect(screen.getByRole('group', { name: 'Versions of this question' })).toHaveTextContent(
      '2 / 2',
    );
  });
});
