import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { isLanguage, type Language } from '@atrium/shared/messages/catalogue';
import { en } from './locales/en';
import { zhCN, type MessageKey } from './locales/zh-cn';

export type { MessageKey } from './locales/zh-cn';

/** The words every feature says alike (Save, Cancel, Delete, Edit...): one entry each. */
export type CommonKey = Extract<MessageKey, `common.${string}`>;
export type { Language } from '@atrium/shared/messages/catalogue';

const storageKey = 'atrium.lang';

function readStoredLanguage(): Language | undefined {
  try {
    const stored = localStorage.getItem(storageKey);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** The browser's languages, most wanted first (`navigator.languages`, else `navigator.language`). */
function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  if (navigator.languages.length > 0) return navigator.languages;
  return navigator.language ? [navigator.language] : [];
}

/** The first of the browser's languages that we speak: zh-* is Chinese, en-* English. */
export function browserLanguage(
  tags: readonly string[] = browserLanguages(),
): Language | undefined {
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase();
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return undefined;
}

/**
 * The language a page opens in (issue 27): the person's own choice (stored when they switched),
 * else the browser's when it names Chinese or English, else the site's default language (from
 * `app/config`, once known), else English (a browser asking for neither reads English sooner
 * than Chinese).
 */
export function firstLanguage(choice: {
  stored?: Language | undefined;
  browser?: Language | undefined;
  site?: Language | undefined;
}): Language {
  return choice.stored ?? choice.browser ?? choice.site ?? 'en';
}

export const i18n = i18next.createInstance();

const openingLanguage = firstLanguage({ stored: readStoredLanguage(), browser: browserLanguage() });
if (typeof document !== 'undefined') document.documentElement.lang = openingLanguage;

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } },
  lng: openingLanguage,
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

/** A key of the web's own bundle (not the server's catalogue: see lib/messages.ts). */
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

function showLanguage(lang: Language): void {
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

/** The person's choice: shown at once and remembered for their next visits. */
export function setLanguage(lang: Language): void {
  try {
    localStorage.setItem(storageKey, lang);
  } catch {
    // Private browsing can refuse storage; the choice then lasts for this page only.
  }
  showLanguage(lang);
}

/**
 * The site's default language arrived (`app/config`'s `siteLanguage`): it is the page's language
 * only when the person chose none and their browser names neither Chinese nor English. Not
 * remembered as a choice. Answers the language the page now speaks.
 */
export function adoptSiteLanguage(site: unknown): Language {
  if (!isLanguage(site)) return currentLanguage();
  const lang = firstLanguage({ stored: readStoredLanguage(), browser: browserLanguage(), site });
  if (lang !== currentLanguage()) showLanguage(lang);
  return lang;
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
