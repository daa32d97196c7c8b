import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@/lib/i18n';
import { resetStores } from '@/test-utils/reset-stores';
import { useConfigStore } from '@/stores/config-store';
import { SiteBanner } from './site-banner';

beforeEach(resetStores);
afterEach(cleanup);

const setBanners = (banners: unknown) =>
  act(() => useConfigStore.getState().setConfig({ siteName: 'S', version: '1', banners }));

const slides = () =>
  [...document.querySelectorAll<HTMLElement>('.atrium-banner-slide [role="img"]')].map(
    (el) => el.style.backgroundImage,
  );
const label = (n: number) => i18n.t('siteBanner.label', { n, count: 3 });
const shown = () =>
  document.querySelector('.atrium-banner-slide:not([aria-hidden="true"]) [role="img"]');

describe('SiteBanner', () => {
  it('shows nothing without banners, or with a malformed value', () => {
    const { container } = render(<SiteBanner />);
    expect(container).toBeEmptyDOMElement();
    setBanners('not a list');
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the banners in their saved order, one at a time, with arrows and dots', async () => {
    render(<SiteBanner />);
    setBanners(['/data/image/b.png', '/data/image/a.png', '/data/image/c.png']);
    expect(slides()).toEqual([
      'url("/data/image/b.png")',
      'url("/data/image/a.png")',
      'url("/data/image/c.png")',
    ]);
    expect(shown()).toHaveAttribute('aria-label', label(1));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: i18n.t('siteBanner.next') }));
    expect(shown()).toHaveAttribute('aria-label', label(2));
    await user.click(screen.getByRole('button', { name: i18n.t('siteBanner.prev') }));
    await user.click(screen.getByRole('button', { name: i18n.t('siteBanner.prev') }));
    expect(shown()).toHaveAttribute('aria-label', label(3));
    await user.click(screen.getByRole('button', { name: label(1) }));
    expect(shown()).toHaveAttribute('aria-label', label(1));
  });

  it('has no arrows for a single banner', () => {
    render(<SiteBanner />);
    setBanners(['/data/image/only.png']);
    expect(slides()).toHaveLength(1);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
