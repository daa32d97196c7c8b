import { z } from 'zod';

/** What every page needs of the site settings (part of `app/config`). */
export const sitePublicConfig = z.strictObject({
  siteName: z.string(),
  logo: z.string(),
  favicon: z.string(),
  banners: z.array(z.string()),
  metaTags: z.array(z.strictObject({ name: z.string(), value: z.string() })),
  selectorMode: z.enum(['builtin', 'external']),
  selectorServer: z.string(),
});
