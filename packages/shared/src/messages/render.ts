/**
 * The message catalogue's machinery (issue 27): every text a person reads that the server sends
 * has a stable key, its zh-CN and en texts, and `{name}` placeholders for its parameters. The
 * texts live in the catalogue's parts (catalogue.ts); this file renders them.
 */

export const languages = ['zh-CN', 'en'] as const;
export type Language = (typeof languages)[number];

/** The language a site speaks when a request names none (SPEC is a Chinese product). */
export const defaultLanguage: Language = 'zh-CN';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** One message's texts. Both languages hold the same placeholders. */
export interface Texts {
  'zh-CN': string;
  en: string;
}

/** The names of a text's `{name}` placeholders. */
export type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P | Placeholders<Rest>
  : never;

/**
 * A reference to a message: its key and parameters, rendered in a language when it is sent.
 * A parameter may itself be a message (a field's name, a library's name), rendered in the same
 * language.
 */
export interface MessageRef<K extends string = string> {
  key: K;
  params?: Record<string, ParamValue>;
  /** Validation: the field (dotted path in the body) the message is about. */
  field?: string;
}

export type ParamValue = string | number | MessageRef;

/** Reads a text's `{name}` placeholders at run time (the catalogue test compares both languages). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
}

/**
 * Renders `ref` in `lang` from `catalogue`. An unknown key renders as the key itself (a newer
 * server's message reaching an older client); a missing parameter stays as its placeholder.
 */
export function renderWith(
  catalogue: Readonly<Record<string, Texts>>,
  lang: Language,
  ref: MessageRef,
): string {
  const texts = catalogue[ref.key];
  if (!texts) return ref.key;
  const params = ref.params ?? {};
  return texts[lang].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? renderWith(catalogue, lang, value) : String(value);
  });
}

/**
 * The language a request asks for: the one the client names (the web sends its UI language),
 * else the first of `Accept-Language` we speak (zh-* is Chinese, en-* English, by q order), else
 * the site's default.
 */
export function pickLanguage(
  named: string | undefined,
  acceptLanguage: string | undefined,
  siteDefault: Language,
): Language {
  if (isLanguage(named)) return named;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part, index) => {
        const [tag = '', ...rest] = part.trim().split(';');
        const q = rest.map((r) => /^\s*q=([\d.]+)/.exec(r)?.[1]).find(Boolean);
        return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
      })
      .filter((entry) => entry.q > 0)
      .sort((a, b) => b.q - a.q || a.index - b.index);
    for (const { tag } of ranked) {
      if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
      if (tag === 'en' || tag.startsWith('en-')) return 'en';
    }
  }
  return siteDefault;
}

/** The header the web app names its UI language in, on every call. */
export const languageHeader = 'x-atrium-lang';
