import { create } from 'zustand';
import type { Query } from '@tanstack/react-query';
import {
  adoptSiteLanguage,
  currentLanguage,
  setLanguage as applyLanguage,
  type Language,
} from '@/lib/i18n';
import { queryClient, invalidateFresh } from '@/lib/query-client';
import { useConfigStore } from './config-store';

const themeKey = 'atrium.theme';

export type ThemeMode = 'light' | 'dark';

function readTheme(): ThemeMode {
  try {
    const stored = localStorage.getItem(themeKey);
    if (stored === 'dark' || stored === 'light') return stored;
  } catch {
    // Storage refused: fall through to the system preference.
  }
  const prefersDark =
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-color-scheme: dark)').matches;
  return prefersDark ? 'dark' : 'light';
}

/**
 * What to fetch again when the language changes: everything whose words the server wrote in the
 * language a call named (library root names such as 图片库 / Image Gallery, lists, settings).
 * Not a conversation's messages: an answer may be streaming into that cache, and its texts are
 * the member's and the model's words (a failed answer's reason renders from its key).
 */
function speaksServerWords(query: Query): boolean {
  const [area, kind] = query.queryKey;
  return !(area === 'aigc' && kind === 'messages');
}

function refetchServerWords(): void {
  void invalidateFresh(queryClient, { predicate: speaksServerWords });
}

export interface PreferencesState {
  theme: ThemeMode;
  language: Language;
  setTheme: (theme: ThemeMode) => void;
  setLanguage: (language: Language) => void;
}

/** The viewer's own display choices, kept in localStorage. */
export const usePreferencesStore = create<PreferencesState>((set) => ({
  theme: readTheme(),
  language: currentLanguage(),
  setTheme: (theme) => {
    try {
      localStorage.setItem(themeKey, theme);
    } catch {
      // Storage refused: the choice lasts for this page only.
    }
    set({ theme });
  },
  setLanguage: (language) => {
    const changed = language !== currentLanguage();
    applyLanguage(language);
    set({ language });
    if (changed) refetchServerWords();
  },
}));

// The site's default language (app/config's `siteLanguage`) speaks for a visitor who chose none
// and whose browser names neither Chinese nor English (lib/i18n.ts, firstLanguage).
useConfigStore.subscribe((state, previous) => {
  const site = state.config.siteLanguage;
  if (site === previous.config.siteLanguage) return;
  const before = currentLanguage();
  const language = adoptSiteLanguage(site);
  if (language === before) return;
  usePreferencesStore.setState({ language });
  refetchServerWords();
});
