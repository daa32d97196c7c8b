import {
  selectorFrameOrigin,
  siteSettingsFields,
  type SitePublicConfig,
  type SiteSettings,
} from '@atrium/shared/contract/site-settings';
import { defaultLanguage, isLanguage, type Language } from '@atrium/shared/messages/catalogue';
import type { Db } from '../../db/index';
import { siteHeldPaths, siteRefKinds } from '@atrium/shared/file-refs';
import { sanitizeRichText } from '../../security/sanitize-html';
import { holdFiles } from '../library/index';
import type { KeptSettings } from '../../db/kept-settings';
import { SettingsRepository } from '../../db/settings.repository';

/** The site name keeps its own key: the app config and the mail templates already read it. */
const siteNameKey = 'siteName';
/**
 * The site's default language keeps its own key too: every instance reads it every few seconds
 * (see index.ts), so the read is one small value, not the whole form.
 */
export const siteLanguageKey = 'siteLanguage';
/** Everything else of the form, as one JSON value. */
export const siteKey = 'site';
/**
 * The origin pages may frame for the external selector ('' for none), written with the form: like
 * the language, every instance reads it every few seconds, so it is one small value of its own.
 */
export const selectorOriginKey = 'selectorOrigin';

type StoredSite = Omit<SiteSettings, 'siteName' | 'siteLanguage'>;

/** What a site has before an admin saves anything (besides its name and language). */
export const siteDefaults: Readonly<StoredSite> = {
  logo: '',
  favicon: '',
  banners: [],
  terms: '',
  about: '',
  metaTags: [],
  selectorMode: 'builtin',
  selectorServer: '',
  advanced: '',
};

const storedShape = siteSettingsFields.omit({ siteName: true, siteLanguage: true }).shape;

/**
 * Each field of the stored value on its own: a value written by an older version, or edited by
 * hand into something invalid, loses only that field instead of the whole form.
 */
function readSite(value: unknown): StoredSite {
  const site: StoredSite = structuredClone(siteDefaults);
  if (typeof value !== 'object' || value === null) return site;
  const raw = value as Record<string, unknown>;
  const take = <K extends keyof StoredSite>(key: K) => {
    const parsed = storedShape[key].safeParse(raw[key]);
    if (parsed.success) site[key] = parsed.data as StoredSite[K];
  };
  (Object.keys(siteDefaults) as (keyof StoredSite)[]).forEach(take);
  return site;
}

export class SiteSettingsService {
  constructor(
    private readonly deps: {
      db: Db;
      /** The site's name and look as app/config reads them, told of every save. */
      kept: KeptSettings;
      now: () => number;
      defaultSiteName: string;
      /**
       * The app's site language (http/language.ts): set whenever the stored one is read or
       * saved, and read for app/config.
       */
      siteLanguage: { get(): Language; set(lang: Language): void };
      /** Lets this instance's pages frame the external selector's origin (or nothing). */
      allowFrames: (origin: string | undefined) => void;
    },
  ) {}

  private get settings() {
    return new SettingsRepository(this.deps.db);
  }

  private async stored(): Promise<StoredSite> {
    const site = readSite(await this.settings.get(siteKey));
    // Sanitised again on the way out, so a value that reached the table some other way is
    // still never handed to a page as live HTML.
    return { ...site, about: sanitizeRichText(site.about) };
  }

  /** The site's default language as stored (zh-CN until one is saved), passed on to onLanguage. */
  async language(): Promise<Language> {
    const stored = await this.settings.get(siteLanguageKey);
    const lang = isLanguage(stored) ? stored : defaultLanguage;
    this.deps.siteLanguage.set(lang);
    return lang;
  }

  /**
   * The origin the external selector's frame loads from, as stored, passed on to allowFrames.
   * A site last saved before the origin had its own key has it worked out from the form, once.
   */
  async frameOrigin(): Promise<string | undefined> {
    let stored = await this.settings.get(selectorOriginKey);
    if (typeof stored !== 'string') {
      const site = readSite(await this.settings.get(siteKey));
      stored = selectorFrameOrigin(site.selectorServer) ?? '';
      await this.settings.setIfAbsent(selectorOriginKey, stored, this.deps.now());
    }
    const origin = typeof stored === 'string' && stored !== '' ? stored : undefined;
    this.deps.allowFrames(origin);
    return origin;
  }

  async get(): Promise<SiteSettings> {
    const name = await this.settings.get(siteNameKey);
    const siteName =
      typeof name === 'string' && name.trim() ? name.trim() : this.deps.defaultSiteName;
    return { siteName, siteLanguage: await this.language(), ...(await this.stored()) };
  }

  /** Stores a validated form; the about text is reduced to the rich-text allow-list first. */
  async save(input: SiteSettings): Promise<SiteSettings> {
    const { siteName, siteLanguage, ...rest } = input;
    const site: StoredSite = {
      ...rest,
      about: sanitizeRichText(rest.about),
      metaTags: rest.metaTags.map((tag) => ({ name: tag.name, value: tag.value })),
    };
    const now = this.deps.now();
    const origin = selectorFrameOrigin(site.selectorServer);
    await this.deps.db.transaction().execute(async (trx) => {
      const settings = new SettingsRepository(trx);
      await settings.set(siteNameKey, siteName, now);
      await settings.set(siteLanguageKey, siteLanguage, now);
      await settings.set(siteKey, site, now);
      await settings.set(selectorOriginKey, origin ?? '', now);
      await holdFiles(
        trx,
        { kinds: siteRefKinds, holderId: 0, memberId: null },
        siteHeldPaths(site),
      );
    });
    await this.deps.kept.changed(siteNameKey, siteKey);
    this.deps.siteLanguage.set(siteLanguage);
    this.deps.allowFrames(origin);
    return this.get();
  }

  /**
   * The part every visitor may see, merged into the member and admin `app/config` answers. The
   * language is the one this instance holds (read at start, on save and every few seconds).
   */
  async publicConfig(): Promise<Omit<SitePublicConfig, 'siteName'>> {
    const site = readSite(await this.deps.kept.get(siteKey));
    return {
      siteLanguage: this.deps.siteLanguage.get(),
      logo: site.logo,
      favicon: site.favicon,
      banners: site.banners,
      metaTags: site.metaTags,
      selectorMode: site.selectorMode,
      selectorServer: site.selectorServer,
    };
  }
}
