import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { LoadingOverlay } from '@/components/loading-overlay';
import { setLanguage } from './i18n';
import { showLoading, withLoading } from './loading';

afterEach(cleanup);

describe('loading overlay', () => {
  it('covers the page with "加载中..." until hidden', () => {
    setLanguage('zh-CN');
    render(<LoadingOverlay />);
    expect(screen.queryByText('加载中...')).not.toBeInTheDocument();
    let hide = () => undefined as void;
    act(() => {
      hide = showLoading();
    });
    expect(screen.getByText('加载中...')).toBeInTheDocument();
    act(() => hide());
    expect(screen.queryByText('加载中...')).not.toBeInTheDocument();
  });

  it('stays until every caller has hidden its own overlay, showing the newest text', () => {
    render(<LoadingOverlay />);
    let hideFirst = () => undefined as void;
    let hideSecond = () => undefined as void;
    act(() => {
      hideFirst = showLoading('Uploading');
      hideSecond = showLoading('Saving');
    });
    expect(screen.getByText('Saving')).toBeInTheDocument();
    act(() => hideSecond());
    expect(screen.getByText('Uploading')).toBeInTheDocument();
    act(() => hideFirst());
    expect(screen.queryByText('Uploading')).not.toBeInTheDocument();
  });

  it('withLoading hides the overlay even when the work fails', async () => {
    render(<LoadingOverlay />);
    const failing = act(() =>
      withLoading(async () => {
        throw new Error('nope');
      }, 'Working'),
    );
    await expect(failing).rejects.toThrow('nope');
    expect(screen.queryByText('Working')).not.toBeInTheDocument();
  });
});
