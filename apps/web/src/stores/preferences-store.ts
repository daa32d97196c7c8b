import { create } from 'zustand';
import { currentLanguage, setLanguage as applyLanguage, type Language } from '@/lib/i18n';

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
    applyLanguage(language);
    set({ language });
  },
}));
