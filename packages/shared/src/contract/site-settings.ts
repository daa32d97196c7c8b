import { z } from 'zod';
import { defineCalls } from './call';
import { defaultLanguage, languages } from '../messages/render';
import { textField } from './fields';
import type { sitePublicConfig } from './site-settings.answers';

/**
 * Site settings (SPEC 2.5 and 2.6): `/admin/api/setting/get|save`, rule `system/setting`. The public part
 * (name, logo, favicon, banners, meta tags) travels in the member `app/config` answer.
 */

export const siteNameMaxLength = 50;
export const sitePathMaxLength = 1000;
export const siteBannersMax = 10;
export const siteMetaTagsMax = 50;
export const siteMetaNameMaxLength = 100;
export const siteMetaValueMaxLength = 1000;
export const siteAboutMaxLength = 200_000;
export const siteAdvancedMaxLength = 100_000;

/**
 * An address the pages may put in src/href: a site path ("/data/..."), or an http(s) address
 * (the direct image upload keeps the answer's fullPath). Anything else (javascript:, data:, "//")
 * is refused, because the terms document becomes a link.
 */
export function isSiteAddress(value: string): boolean {
  if (/[\s\p{Cc}]/u.test(value)) return false;
  return /^\/(?![/\\])/.test(value) || /^https?:\/\/[^/\\]/i.test(value);
}

const address = textField()
  .trim()
  .max(sitePathMaxLength)
  .refine((v) => v === '' || isSiteAddress(v), 'admin.siteAddress');

/** Meta names as pages use them ("description", "og:title", "twitter:card"). */
export const metaNamePattern = /^[A-Za-z][A-Za-z0-9:._-]*$/;

export const siteMetaTagSchema = z.strictObject({
  name: textField()
    .trim()
    .min(1)
    .max(siteMetaNameMaxLength)
    .regex(metaNamePattern, 'admin.metaNameRule'),
  value: textField().max(siteMetaValueMaxLength),
});
export type SiteMetaTag = z.infer<typeof siteMetaTagSchema>;

/** Why `text` is not valid JSON (the parser's words), or null when it is. Empty text is allowed. */
export function jsonProblem(text: string): string | null {
  if (text.trim() === '') return null;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** SPEC 2.4: the picker fields use the built-in file library, or an external selector site. */
export const selectorModes = ['builtin', 'external'] as const;
export type SelectorMode = (typeof selectorModes)[number];

/**
 * The origin a page must let frames load from for this selector address (CSP frame-src), or
 * undefined when the address is empty or a path of this site ('self' covers it).
 */
export function selectorFrameOrigin(server: string): string | undefined {
  const address = server.trim();
  if (!/^https?:\/\/[^/\\]/i.test(address)) return undefined;
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

/**
 * The form's fields, each on its own (the stored value is read field by field, and the answers
 * give back what is stored even when it breaks a rule between fields).
 * The form's custom messages are catalogue keys (issue 27): a refusal names the field in the
 * request's language.
 */
export const siteSettingsFields = z.strictObject({
  siteName: textField().trim().min(1).max(siteNameMaxLength),
  /** The language the site answers a request that names none in (issue 27), and a first visit's. */
  siteLanguage: z.enum(languages).default(defaultLanguage),
  logo: address,
  favicon: address,
  banners: z.array(address.refine((v) => v !== '', 'validation.required')).max(siteBannersMax),
  terms: address,
  /** Rich text; the server sanitises it before storing. */
  about: textField().max(siteAboutMaxLength),
  metaTags: z.array(siteMetaTagSchema).max(siteMetaTagsMax),
  selectorMode: z.enum(selectorModes).default('builtin'),
  /** `window.__selectorDialogServer` of the external mode: the picker opens `{server}/{library}`. */
  selectorServer: address.default(''),
  /** JSON text kept as typed, refused when it does not parse. */
  advanced: textField()
    .max(siteAdvancedMaxLength)
    .superRefine((text, ctx) => {
      const problem = jsonProblem(text);
      if (problem) ctx.addIssue({ code: 'custom', message: 'admin.invalidJson' });
    }),
});

/** What a save must hold: the fields, and the external selector only with its address. */
export const siteSettingsSchema = siteSettingsFields.superRefine((settings, ctx) => {
  if (settings.selectorMode === 'external' && settings.selectorServer === '')
    ctx.addIssue({
      code: 'custom',
      path: ['selectorServer'],
      message: 'admin.selectorServerRequired',
    });
});
export type SiteSettings = z.infer<typeof siteSettingsFields>;

export const siteSettingsGetRequest = z.strictObject({});
export const siteSettingsSaveRequest = z.strictObject({ settings: siteSettingsSchema });
export type SiteSettingsSaveRequest = z.input<typeof siteSettingsSaveRequest>;

/** What the member app reads from `app/config` `config`. */
export type SitePublicConfig = z.infer<typeof sitePublicConfig>;

export const siteSettingsRule = 'system/setting';

export const siteSettingsCalls = defineCalls('admin', {
  'setting/get': {
    rule: siteSettingsRule,
    request: siteSettingsGetRequest,
    answer: siteSettingsFields,
  },
  'setting/save': {
    rule: siteSettingsRule,
    request: siteSettingsSaveRequest,
    answer: siteSettingsFields,
  },
});
