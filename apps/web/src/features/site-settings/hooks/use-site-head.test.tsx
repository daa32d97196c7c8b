import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { resetStores } from '@/test-utils/reset-stores';
import { useConfigStore } from '@/stores/config-store';
import { useSiteHead } from './use-site-head';

beforeEach(() => {
  resetStores();
  document.head.innerHTML =
    '<meta name="viewport" content="width=device-width"><title>Atrium</title>';
});
afterEach(cleanup);

const metas = () => [...document.head.querySelectorAll('meta')].map((m) => [m.name, m.content]);

describe('useSiteHead', () => {
  it('waits for the config, then sets the title, favicon and extra meta tags', () => {
    renderHook(() => useSiteHead('Fallback'));
    expect(document.title).toBe('Atrium');
    act(() =>
      useConfigStore.getState().setConfig({
        siteName: 'Garden',
        version: '1',
        favicon: '/data/image/icon.png',
        metaTags: [
          { name: 'description', value: 'Grow things' },
          { name: 'bad', value: 3 },
        ],
      }),
    );
    expect(document.title).toBe('Garden');
    expect(document.head.querySelector('link[rel="icon"]')).toHaveAttribute(
      'href',
      '/data/image/icon.png',
    );
    expect(metas()).toEqual([
      ['viewport', 'width=device-width'],
      ['description', 'Grow things'],
    ]);
  });

  it('replaces only the tags it added when the settings change', () => {
    renderHook(() => useSiteHead('Fallback'));
    const set = (metaTags: unknown) =>
      act(() => useConfigStore.getState().setConfig({ siteName: '', version: '1', metaTags }));
    set([{ name: 'keywords', value: 'a' }]);
    set([{ name: 'author', value: 'b' }]);
    expect(metas()).toEqual([
      ['viewport', 'width=device-width'],
      ['author', 'b'],
    ]);
    expect(document.title).toBe('Fallback');
  });
});
