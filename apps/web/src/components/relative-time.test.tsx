import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { RelativeTime, relativeTimeText } from './relative-time';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('relative time', () => {
  it('speaks Simplified Chinese', () => {
    const now = new Date('2026-05-01T12:00:00Z').getTime();
    expect(relativeTimeText(now - 5 * 60_000, now)).toBe('5 分钟前');
    expect(relativeTimeText(now - 3 * 86_400_000, now)).toBe('3 天前');
  });

  it('refreshes every 60 s', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-05-01T12:00:00Z'));
    render(<RelativeTime value={new Date('2026-05-01T11:58:00Z')} />);
    expect(screen.getByText('2 分钟前')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(59_000);
    });
    expect(screen.getByText('2 分钟前')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(screen.getByText('3 分钟前')).toBeInTheDocument();
  });

  it('stays put with auto-update off', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-05-01T12:00:00Z'));
    render(<RelativeTime value={new Date('2026-05-01T11:58:00Z')} autoUpdate={false} />);
    act(() => {
      vi.advanceTimersByTime(180_000);
    });
    expect(screen.getByText('2 分钟前')).toBeInTheDocument();
  });
});
