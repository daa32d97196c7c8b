import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import { currentLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { useConfigStore } from './config-store';
import { usePreferencesStore } from './preferences-store';

afterEach(() => {
  vi.restoreAllMocks();
  usePreferencesStore.getState().setLanguage('zh-CN');
});

/** An observed query (as a mounted component holds one) that counts its fetches. */
function watched(queryKey: readonly unknown[]): { fetches: () => number; stop: () => void } {
  let count = 0;
  const observer = new QueryObserver(queryClient, {
    queryKey,
    queryFn: () => {
      count += 1;
      return Promise.resolve(count);
    },
  });
  const stop = observer.subscribe(() => undefined);
  return { fetches: () => count, stop };
}

describe('switching the language', () => {
  it("fetches again what the server worded, at once, but not a conversation's messages", async () => {
    usePreferencesStore.getState().setLanguage('zh-CN');
    const tree = watched(['files', '/admin/data/file_manager', 'image', 'categories']);
    const messages = watched(['aigc', 'messages', 7]);
    await vi.waitFor(() => expect(tree.fetches()).toBe(1));
    await vi.waitFor(() => expect(messages.fetches()).toBe(1));

    usePreferencesStore.getState().setLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(usePreferencesStore.getState().language).toBe('en');
    await vi.waitFor(() => expect(tree.fetches()).toBe(2));
    expect(messages.fetches()).toBe(1);

    // Choosing the language already shown fetches nothing.
    usePreferencesStore.getState().setLanguage('en');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tree.fetches()).toBe(2);
    tree.stop();
    messages.stop();
  });
});

describe("the site's default language", () => {
  it('speaks for a visitor who chose none and whose browser names neither language', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR']);
    localStorage.clear();
    useConfigStore.getState().setConfig({ siteName: 'Atrium', version: '1', siteLanguage: 'en' });
    expect(currentLanguage()).toBe('en');
    expect(usePreferencesStore.getState().language).toBe('en');
    expect(localStorage.getItem('atrium.lang')).toBeNull();
  });

  it("gives way to the browser's language and to the person's choice", () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['zh-TW']);
    localStorage.clear();
    useConfigStore.getState().setConfig({ siteName: 'Atrium', version: '1', siteLanguage: 'en' });
    expect(currentLanguage()).toBe('zh-CN');

    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR']);
    usePreferencesStore.getState().setLanguage('zh-CN');
    useConfigStore
      .getState()
      .setConfig({ siteName: 'Atrium', version: '2', siteLanguage: 'zh-CN' });
    useConfigStore.getState().setConfig({ siteName: 'Atrium', version: '3', siteLanguage: 'en' });
    expect(currentLanguage()).toBe('zh-CN');
  });
});
