import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { setLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/test-utils/render';
import { VerifyCodeButton } from './verify-code-button';

beforeEach(() => {
  setLanguage('en');
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const button = () => screen.getByRole('button');

/** Clicks and lets the send promise settle. */
async function click() {
  await act(async () => {
    fireEvent.click(button());
    await Promise.resolve();
  });
}

describe('verify code button', () => {
  it('goes "Click to get" -> "60s" counting down each second -> "Get again"', async () => {
    const send = vi.fn(() => Promise.resolve());
    renderWithProviders(<VerifyCodeButton send={send} />);
    expect(button()).toHaveTextContent('Click to get');
    expect(button()).toBeEnabled();
    await click();
    expect(send).toHaveBeenCalledTimes(1);
    expect(button()).toHaveTextContent('60s');
    expect(button()).toBeDisabled();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(button()).toHaveTextContent('59s');
    act(() => {
      vi.advanceTimersByTime(58_000);
    });
    expect(button()).toHaveTextContent('1s');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(button()).toHaveTextContent('Get again');
    expect(button()).toBeEnabled();
    await click();
    expect(send).toHaveBeenCalledTimes(2);
    expect(button()).toHaveTextContent('60s');
  });

  it('shows loading while sending and ignores clicks meanwhile', async () => {
    let finish: () => void = () => undefined;
    const send = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    renderWithProviders(<VerifyCodeButton send={send} />);
    await click();
    expect(button()).toHaveAttribute('aria-busy', 'true');
    expect(button()).toBeDisabled();
    await click();
    expect(send).toHaveBeenCalledTimes(1);
    await act(async () => {
      finish();
      await Promise.resolve();
    });
    expect(button()).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryByRole('img', { name: 'loading' })).toBeNull();
    expect(button()).toHaveAccessibleName('60s');
  });

  it('keeps its state when sending fails, stops loading and calls onError', async () => {
    const failure = new Error('nope');
    const send = vi.fn((): Promise<void> => Promise.reject(failure));
    const onError = vi.fn();
    renderWithProviders(<VerifyCodeButton send={send} onError={onError} seconds={3} />);
    await click();
    expect(onError).toHaveBeenCalledWith(failure);
    expect(button()).toHaveTextContent('Click to get');
    expect(button()).toBeEnabled();
    expect(button()).toHaveAttribute('aria-busy', 'false');

    send.mockImplementationOnce(() => Promise.resolve());
    await click();
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(button()).toHaveTextContent('Get again');
    await click();
    expect(onError).toHaveBeenCalledTimes(2);
    expect(button()).toHaveTextContent('Get again');
    expect(button()).toBeEnabled();
  });

  it('speaks Chinese by default', async () => {
    setLanguage('zh-CN');
    renderWithProviders(<VerifyCodeButton send={() => Promise.resolve()} />);
    expect(button()).toHaveTextContent('点击获取');
  });
});
