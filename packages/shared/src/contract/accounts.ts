/**
 * Image captcha, verification codes and member accounts (SPEC 2.6, 3.8, 4.6, 4.7, 7.4; DESIGN 7):
 * request schemas and answers shared by the server routes and the web client.
 */

import { z } from 'zod';
import { isImageDataPath } from '../data-paths';
import {
  AccountLimits,
  emailTransports,
  loginCaptchaModes,
  parseTarget,
  passwordProblem,
  smsTransports,
  smtpSecurityModes,
  usernamePattern,
} from './accounts-rules';
import {
  captchaImageResponse,
  loginCaptchaView,
  loginResponse,
  messagingView,
  outboxListResponse,
  profile,
  verifySendResponse,
} from './accounts.answers';
import { emptyRequest } from './auth';
import { defineCalls } from './call';
import { intField, textField } from './fields';

export * from './accounts-rules';

const captchaField = textField().trim().max(20);

const targetField = textField()
  .trim()
  .min(1)
  .max(254)
  .refine((v) => parseTarget(v) !== undefined, 'account.targetInvalid');

const usernameField = textField().trim().regex(usernamePattern, 'account.usernameRule');

export const verifySendRequest = z.strictObject({
  target: targetField,
  captcha: captchaField,
  /**
   * The username a sign-up will take, when the code is for one: a taken name is refused (after
   * the captcha, before any code goes out), so the person learns it before filling in the rest.
   */
  username: usernameField.optional(),
});
export type VerifySendRequest = z.infer<typeof verifySendRequest>;

const passwordField = textField().superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const codeField = textField()
  .trim()
  .regex(/^\d{6}$/, 'account.codeFormat');

/**
 * Sign-up. No captcha: the code request took it (SPEC 7.4), and a code is worth more than one
 * (it proves the address); asking again made people retype a captcha they had already answered.
 */
export const registerRequest = z.strictObject({
  username: usernameField,
  password: passwordField,
  target: targetField,
  code: codeField,
  nickname: textField().trim().max(50).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const passwordResetRequest = z.strictObject({
  target: targetField,
  code: codeField,
  password: passwordField,
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequest>;

export const profileSaveRequest = z.strictObject({
  nickname: textField().trim().min(1).max(50),
  avatar: textField()
    .trim()
    .refine((v) => v === '' || isImageDataPath(v), 'account.avatarNotImage'),
});
export type ProfileSaveRequest = z.infer<typeof profileSaveRequest>;

export const passwordChangeRequest = z.strictObject({
  oldPassword: textField().min(1).max(AccountLimits.passwordMaxLength),
  password: passwordField,
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequest>;

/* ---- Admin: message transports, outbox and the login captcha setting ---- */

const hostField = textField()
  .trim()
  .max(253)
  .regex(/^[A-Za-z0-9.:[\]-]*$/, 'account.hostInvalid');

/** The `messaging` setting as the admin form edits it; the SMTP password is write-only. */
export const messagingForm = z.strictObject({
  emailTransport: z.enum(emailTransports),
  smsTransport: z.enum(smsTransports),
  smtp: z.strictObject({
    host: hostField,
    port: intField(1, 65535),
    security: z.enum(smtpSecurityModes),
    user: textField().trim().max(200),
    /** Empty keeps the stored password, refused when host, port, security or user changed. */
    password: textField().max(500).optional(),
    from: textField().trim().max(254),
  }),
  sms: z.strictObject({
    url: textField()
      .trim()
      .max(2000)
      .refine((v) => v === '' || (/^https?:\/\//i.test(v) && URL.canParse(v)), 'validation.url'),
    template: textField()
      .trim()
      .max(500)
      .refine((v) => v.includes('{code}'), 'account.templateNeedsCode'),
    /**
     * Sent as `Authorization: Bearer <secret>`, only to the URL it was saved with. Omitted keeps
     * the stored one (refused when the URL changed), empty removes it.
     */
    secret: textField().trim().max(500).optional(),
  }),
});
export type MessagingForm = z.infer<typeof messagingForm>;

/** What the admin form loads: the form without the secrets, plus whether each one is stored. */
export type MessagingView = z.infer<typeof messagingView>;

export const messagingTestRequest = z.strictObject({ target: targetField });

export const outboxListRequest = z.strictObject({
  page: intField(1, 100_000).default(1),
  pageSize: intField(1, 100).default(20),
});

export const loginCaptchaRequest = z.strictObject({ mode: z.enum(loginCaptchaModes) });

/** Admin rules of the pages behind the admin calls below (packages/shared/src/menu.ts). */
export const AccountRules = {
  outbox: 'system/outbox',
  messaging: 'system/message',
  loginCaptcha: 'system/setting',
} as const;

/** `captcha/image` of both areas (SPEC 7.4). */
export const captchaCalls = {
  admin: defineCalls('admin', {
    'captcha/image': { public: true, request: emptyRequest, answer: captchaImageResponse },
  }),
  member: defineCalls('member', {
    'captcha/image': { public: true, request: emptyRequest, answer: captchaImageResponse },
  }),
};

/** Member sign-up, verification codes, password reset, profile and password change (DESIGN 5, 7). */
export const accountCalls = defineCalls('member', {
  'verify/send': { public: true, request: verifySendRequest, answer: verifySendResponse },
  'auth/register': { public: true, request: registerRequest, answer: loginResponse },
  'auth/password_reset': { public: true, request: passwordResetRequest, answer: z.null() },
  'account/profile': { request: emptyRequest, answer: profile },
  'account/profile/save': { request: profileSaveRequest, answer: profile },
  'account/password': { request: passwordChangeRequest, answer: z.null() },
});

/** The admin's message transports, outbox and login captcha setting. */
export const messagingCalls = defineCalls('admin', {
  'system/outbox/list': {
    rule: AccountRules.outbox,
    request: outboxListRequest,
    answer: outboxListResponse,
  },
  'system/message/get': {
    rule: AccountRules.messaging,
    request: emptyRequest,
    answer: messagingView,
  },
  'system/message/save': {
    rule: AccountRules.messaging,
    request: messagingForm,
    answer: messagingView,
  },
  'system/message/test': {
    rule: AccountRules.messaging,
    request: messagingTestRequest,
    answer: z.null(),
  },
  'system/login_captcha/get': {
    rule: AccountRules.loginCaptcha,
    request: emptyRequest,
    answer: loginCaptchaView,
  },
  'system/login_captcha/save': {
    rule: AccountRules.loginCaptcha,
    request: loginCaptchaRequest,
    answer: loginCaptchaView,
  },
});
