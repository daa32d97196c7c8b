import { z } from 'zod';
import { epochMs, id } from './paging.answers';

/** What the account, verification and messaging calls answer (DESIGN 7). */

export const captchaImageResponse = z.strictObject({
  /** A data URL: `data:image/png;base64,...`. */
  image: z.string().startsWith('data:image/'),
});

export const verifySendResponse = z.strictObject({
  /** Seconds until another code may be sent to the same target. */
  wait: z.number().int().nonnegative(),
});

export const profile = z.strictObject({
  id,
  username: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  createdAt: epochMs,
});

export const outboxRecord = z.strictObject({
  id,
  channel: z.enum(['email', 'phone']),
  transport: z.string(),
  /** Masked: `a***@x.com`, `138****5678`. */
  target: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(['logged', 'sent', 'failed']),
  error: z.string(),
  createdAt: epochMs,
});

export const outboxListResponse = z.strictObject({
  records: z.array(outboxRecord),
  total: z.number().int().nonnegative(),
  pageSize: z.number().int().positive(),
});

/** What the admin form loads: the form without the secrets, plus whether each one is stored. */
export const messagingView = z.strictObject({
  emailTransport: z.enum(['log', 'smtp']),
  smsTransport: z.enum(['log', 'webhook']),
  smtp: z.strictObject({
    host: z.string(),
    port: z.number().int(),
    security: z.enum(['none', 'starttls', 'tls']),
    user: z.string(),
    from: z.string(),
    hasPassword: z.boolean(),
  }),
  sms: z.strictObject({ url: z.string(), template: z.string(), hasSecret: z.boolean() }),
});

export const loginCaptchaView = z.strictObject({ mode: z.enum(['auto', 'always', 'never']) });

/** The signed-in person as the client sees them; `id: 0` means anonymous (SPEC 3.10). */
export const publicUserAnswer = z.strictObject({
  id: z.number().int().nonnegative(),
  username: z.string().optional(),
  nickname: z.string().optional(),
  avatar: z.string().optional(),
});

export const loginResponse = z.strictObject({
  user: publicUserAnswer,
  /** Same value as the token response header, for clients that cannot read headers. */
  token: z.string(),
});

/** Answer of `app/config` (DESIGN 5): the site's public config grows with the features. */
export const appConfigResponse = z.strictObject({
  config: z.object({ siteName: z.string(), version: z.string() }).catchall(z.unknown()),
  user: publicUserAnswer,
  /** Hash of the built web assets; changes when a new version is deployed. */
  hashPC: z.string(),
  /** Map of lazy data set name to the hash of its data (SPEC 4.2). */
  hashLazyValue: z.record(z.string(), z.string()),
});

interface ShownMenu {
  title: string;
  url: string;
  rule?: string | string[];
  icon?: string;
  children: ShownMenu[];
  show: boolean;
}
const shownMenu: z.ZodType<ShownMenu> = z.lazy(() =>
  z.strictObject({
    title: z.string(),
    url: z.string(),
    rule: z.union([z.string(), z.array(z.string())]).optional(),
    icon: z.string().optional(),
    children: z.array(shownMenu),
    show: z.boolean(),
  }),
);

export const adminAppConfigResponse = appConfigResponse.extend({
  rules: z.array(z.string()),
  menus: z.array(shownMenu),
});
