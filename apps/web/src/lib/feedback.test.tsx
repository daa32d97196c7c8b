import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { alertDialog, confirmDialog, toast, toastSeconds } from './feedback';
import { setLanguage } from './i18n';
import { renderWithProviders } from '@/test-utils/render';

beforeEach(() => {
  setLanguage('zh-CN');
  renderWithProviders(<main />);
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('toast durations (SPEC 9)', () => {
  it('lasts 2 s for short messages and floor(length / 5) s past 10 characters', () => {
    expect(toastSeconds('Saved')).toBe(2);
    expect(toastSeconds('0123456789')).toBe(2);
    expect(toastSeconds('01234567890')).toBe(2);
    expect(toastSeconds('012345678901234')).toBe(3);
    expect(toastSeconds('x'.repeat(52))).toBe(10);
    expect(toastSeconds('文件大小不合法，请重新选择文件')).toBe(3);
  });

  it('shows a short toast and takes it away after about 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => toast.success('Saved'));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    const notice = () => screen.queryByText('Saved')?.closest('.ant-message-notice');
    await act(() => vi.advanceTimersByTimeAsync(1_800));
    expect(notice()).not.toHaveClass('ant-message-fade-leave');
    await act(() => vi.advanceTimersByTimeAsync(400));
    await waitFor(() =>
      expect(notice() ?? null).toSatisfy(
        (n) => n === null || n.classList.contains('ant-message-fade-leave'),
      ),
    );
  });
});

describe('toasts read out', () => {
  it('shows each toast as an alert, which a screen reader reads as it appears', async () => {
    act(() => toast.success('已保存'));
    const notice = (await screen.findByText('已保存')).closest('.ant-message-notice');
    expect(notice).toHaveAttribute('role', 'alert');
  });
});

describe('dialogs', () => {
  it('asks in a confirm titled 提示 and resolves true on OK', async () => {
    const answer = confirmDialog('确定删除吗？');
    const dialog = await screen.findByRole('dialog', { name: '提示' });
    expect(dialog).toHaveTextContent('确定删除吗？');
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await expect(answer).resolves.toBe(true);
  });

  it('resolves false on cancel', async () => {
    const answer = confirmDialog('Leave?');
    await userEvent.click(await screen.findByRole('button', { name: /取\s*消/ }));
    await expect(answer).resolves.toBe(false);
  });

  it('shows an alert titled 提示 with one button', async () => {
    const closed = alertDialog('Please configure window.__selectorDialogServer first');
    await screen.findByRole('dialog', { name: '提示' });
    expect(screen.queryByRole('button', { name: /取\s*消/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await expect(closed).resolves.toBeUndefined();
  });

  it('titles dialogs "Notice" in English', async () => {
    setLanguage('en');
    void confirmDialog('Leave?');
    expect(await screen.findByRole('dialog', { name: 'Notice' })).toHaveTextContent('Leave?');
  });
});

describe('outside the app', () => {
  it("opens with antd's own dialogs when the app's host is not mounted", async () => {
    cleanup();
    const answer = confirmDialog('Outside the app');
    const dialog = await screen.findByRole('dialog', { name: '提示' }, { timeout: 10_000 });
    expect(dialog).toHaveTextContent('Outside the app');
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await expect(answer).resolves.toBe(true);
  });
});

describe('toasts with no holder mounted', () => {
  it('wait, shown nowhere, and show once the app mounts its holder', async () => {
    cleanup();
    toast.info('an answer that landed after its page was left', 60);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByText('an answer that landed after its page was left')).toBeNull();

    renderWithProviders(<main />);
    expect(
      await screen.findByText('an answer that landed after its page was left'),
    ).toBeInTheDocument();
  });

  it('keep only the latest few', async () => {
    cleanup();
    for (const n of [1, 2, 3, 4, 5]) toast.info(`waiting ${n}`);
    renderWithProviders(<main />);
    expect(await screen.findByText('waiting 5')).toBeInTheDocument();
    expect(screen.getByText('waiting 3')).toBeInTheDocument();
    expect(screen.queryByText('waiting 2')).toBeNull();
  });
});
