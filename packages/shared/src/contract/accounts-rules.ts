// Types only from the answers module: this one stays free of zod at run time, for the browser.
import type { z } from 'zod';
import type {
  captchaImageResponse,
  outboxListResponse,
  outboxRecord,
  profile,
  verifySendResponse,
} from './accounts.answers';
/**
 * The parts of the accounts contract that need no zod (DESIGN 7): constants, the target and
 * password rules, masking and answer types. The web client imports these, so zod stays out of its
 * bundle; `./accounts` adds the request schemas and re-exports everything here.
 */

/**
 * Characters the captcha draws: no 0, O, D, 1, I, 2, 5, 6 or 8, which under its distortion pass
 * for one another or for the letters kept (Z, S, G, B). Answers ignore case.
 */
export const captchaAlphabet = 'ABCEFGHJKLMNPQRSTUVWXYZ3479';
export const captchaLength = 4;

export const AccountLimits = {
  captchaTtlMs: 5 * 60_000,
  codeLength: 6,
  codeTtlMs: 10 * 60_000,
  codeMaxWrongTries: 5,
  resendAfterMs: 60_000,
  dailyCodesPerTarget: 10,
  dailyCodesPerIp: 50,
  passwordMinLength: 8,
  passwordMaxLength: 200,
} as const;

export type CaptchaImageResponse = z.infer<typeof captchaImageResponse>;

export type TargetKind = 'email' | 'phone';
export interface Target {
  kind: TargetKind;
  /** Normalised: e-mail lower-cased; phone without spaces, dashes or brackets. */
  value: string;
}

const emailPattern = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const phonePattern = /^\+?[1-9]\d{6,14}$/;

/** Reads an e-mail address or a phone number (E.164-like digits); undefined when it is neither. */
export function parseTarget(raw: string): Target | undefined {
  const text = raw.trim();
  if (text.includes('@')) {
    const email = text.toLowerCase();
    return email.length <= 254 && emailPattern.test(email)
      ? { kind: 'email', value: email }
      : undefined;
  }
  const phone = text.replace(/[\s\-()]/g, '');
  return phonePattern.test(phone) ? { kind: 'phone', value: phone } : undefined;
}

export type VerifySendResponse = z.infer<typeof verifySendResponse>;

/**
 * Why a password is too weak, as a catalogue key (issue 27; the zod message of the password
 * fields, rendered naming the field), or undefined when it passes (at least 8 characters, letters
 * and digits).
 */
export function passwordProblem(
  password: string,
):
  | 'account.passwordTooShort'
  | 'account.passwordTooLong'
  | 'account.passwordLettersDigits'
  | undefined {
  if (password.length < AccountLimits.passwordMinLength) return 'account.passwordTooShort';
  if (password.length > AccountLimits.passwordMaxLength) return 'account.passwordTooLong';
  if (!/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)) return 'account.passwordLettersDigits';
  return undefined;
}

/**
 * Member usernames start with a letter and hold letters, digits and underscores, so one can never
 * read as somebody's e-mail address or phone number at login.
 */
export const usernamePattern = /^\p{L}[\p{L}\p{N}_]{2,31}$/u;

export type Profile = z.infer<typeof profile>;

export const smtpSecurityModes = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof smtpSecurityModes)[number];

export const emailTransports = ['log', 'smtp'] as const;
export const smsTransports = ['log', 'webhook'] as const;

export const defaultSmsTemplate = 'Your verification code is {code}. It expires in 10 minutes.';

export const loginCaptchaModes = ['auto', 'always', 'never'] as const;
export type LoginCaptchaMode = (typeof loginCaptchaModes)[number];

export type OutboxStatus = 'logged' | 'sent' | 'failed';

export type OutboxRecord = z.infer<typeof outboxRecord>;

export type OutboxListResponse = z.infer<typeof outboxListResponse>;

/** Masks an e-mail address or phone number for lists: `a***@x.com`, `138****5678`. */
export function maskTarget(target: string): string {
  const at = target.indexOf('@');
  if (at > 0) return `${target.slice(0, 1)}***${target.slice(at)}`;
  if (target.length >= 8) return `${target.slice(0, 3)}****${target.slice(-4)}`;
  return `${target.slice(0, 1)}****${target.slice(-1)}`;
}
