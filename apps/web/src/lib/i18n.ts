import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from './locales/en';
import { zhCN, type MessageKey } from './locales/zh-cn';

export type { MessageKey } from './locales/zh-cn';

const languages = ['zh-CN', 'en'] as const;
export type Language = (typeof languages)[number];

const storageKey = 'atrium.lang';

function isLanguage(value: unknown): value is Language {
  return languages.some((lang) => lang === value);
}

function readStoredLanguage(): Language {
  try {
    const stored = localStorage.getItem(storageKey);
    return isLanguage(stored) ? stored : 'zh-CN';
  } catch {
    return 'zh-CN';
  }
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } },
  lng: readStoredLanguage(),
  fallbackLng: 'zh-CN',
  // Flat keys such as "menu.dashboard" travel as data; a separator would split them.
  keySeparator: false,
  nsSeparator: false,
  // React escapes on render; escaping here too would show entities to the user.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  // Every text ships in the bundle, so there is never anything to wait for; suspending would only
  // risk blanking the page while a language switch settles.
  react: { useSuspense: false },
});

export type MessageVars = Record<string, string | number>;

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(zhCN, key);
}

/** Translates outside React (API client, stores, dialogs). */
export function t(key: MessageKey, vars?: MessageVars): string {
  return i18n.t(key, vars);
}

/**
 * Translates a key that arrives as data (menu titles), including keys that features add to the
 * shared bundle; unknown keys are shown as they are.
 */
export function tText(key: string, vars?: MessageVars): string {
  return i18n.exists(key) ? i18n.t(key, vars) : key;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'zh-CN';
}

export function setLanguage(lang: Language): void {
  try {
    localStorage.setItem(storageKey, lang);
  } catch {
    // Private browsing can refuse storage; the choice then lasts for this page only.
  }
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

/** Typed translation hook; components re-render when the language changes. */
export function useT(): {
  t: (key: MessageKey, vars?: MessageVars) => string;
  tText: (key: string, vars?: MessageVars) => string;
  language: Language;
} {
  const { t: raw, i18n: instance } = useTranslation();
  const language = isLanguage(instance.language) ? instance.language : 'zh-CN';
  return {
    t: (key, vars) => raw(key, vars),
    tText: (key, vars) => (instance.exists(key) ? raw(key, vars) : key),
    language,
  };
}
