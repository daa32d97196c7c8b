import { z } from 'zod';
import { languages } from '../messages/render';

/** What every page needs of the site settings (part of `app/config`). */
export const sitePublicConfig = z.strictObject({
  siteName: z.string(),
  /** The site's default language: what the web shows a first visit in. */
  siteLanguage: z.enum(languages),
  logo: z.string(),
  favicon: z.string(),
  banners: z.array(z.string()),
  metaTags: z.array(z.strictObject({ name: z.string(), value: z.string() })),
  selectorMode: z.enum(['builtin', 'external']),
  selectorServer: z.string(),
});
