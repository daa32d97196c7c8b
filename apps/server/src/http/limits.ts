import { AccountLimits } from '@atrium/shared/contract/accounts';
import { message, type MessageRef } from '@atrium/shared/messages/catalogue';

/**
 * Every rate limit of the product, in one place (DESIGN 1, 7, 9). Each is a fixed window of
 * `durationMs` holding at most `points` counted attempts per key; an attempt is counted before
 * the thing it guards is checked, so parallel requests cannot get past it (`RateLimits`).
 *
 * `message` is what the caller reads when the limit refuses (code 1004 unless `code` says
 * otherwise); `wait` is the time left before the window ends, already rounded for reading.
 */
export interface LimitSpec {
  points: number;
  durationMs: number;
  /** `limit` is the number that applied: `points`, or the admin's lower setting. */
  message: (wait: Wait, limit: number) => MessageRef;
}

/** Time left before a window ends, as a sentence fragment and in seconds. */
export interface Wait {
  /** "15 minutes", "1 minute", "40 seconds", in the reader's language. */
  text: MessageRef;
  seconds: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type WaitingMessage =
  'limits.signInPerAddress' | 'limits.attempts' | 'limits.wrongPasswords' | 'limits.captchaImages';
const tryAgainIn = (key: WaitingMessage) => (wait: Wait) => message(key, { wait: wait.text });

export const limitSpecs = {
  /**
   * Every sign-in attempt from one address, successful ones too (both areas together): a flood
   * of sign-ins is mostly password hashing, the dearest thing the server does.
   */
  signInPerAddress: {
    points: 30,
    durationMs: MINUTE,
    message: tryAgainIn('limits.signInPerAddress'),
  },
  /**
   * Failed sign-ins from one address across accounts: a hard block of that address only.
   * Counted before the password is checked, given back when it turns out right.
   */
  signInFailuresPerAddress: {
    points: 30,
    durationMs: 15 * MINUTE,
    message: tryAgainIn('limits.attempts'),
  },
  /** Failed sign-ins on one account from one address: a hard block of that pair only. */
  signInFailuresPerAccountAddress: {
    points: 10,
    durationMs: 15 * MINUTE,
    message: tryAgainIn('limits.attempts'),
  },
  /**
   * Failed sign-ins on one account from anywhere. Never a block, or anyone could lock the owner
   * out: past `Limits.loginFailuresBeforeCaptcha` every attempt needs a captcha, and past
   * `signInDelay.afterFailures` every attempt waits a little longer. `points` only bounds the
   * counter.
   */
  signInFailuresPerAccount: {
    points: 1_000_000,
    durationMs: 15 * MINUTE,
    message: tryAgainIn('limits.attempts'),
  },
  /** Wrong current passwords when a member changes theirs (`account/password`). */
  passwordChangeFailures: {
    points: 5,
    durationMs: 15 * MINUTE,
    message: tryAgainIn('limits.wrongPasswords'),
  },
  /** New captcha images per address. */
  captchaImagesPerAddress: {
    points: 30,
    durationMs: MINUTE,
    message: tryAgainIn('limits.captchaImages'),
  },
  /** One verification code per target per minute. */
  verifyResendPerTarget: {
    points: 1,
    durationMs: AccountLimits.resendAfterMs,
    message: (wait) => message('limits.codeResend', { seconds: wait.seconds }),
  },
  verifyDailyPerTarget: {
    points: AccountLimits.dailyCodesPerTarget,
    durationMs: DAY,
    message: () => message('limits.codesToTarget'),
  },
  verifyDailyPerAddress: {
    points: AccountLimits.dailyCodesPerIp,
    durationMs: DAY,
    message: () => message('limits.codesFromNetwork'),
  },
  /**
   * Checks of one verification code (keyed by the code's nonce). Not a 1004: after the last
   * wrong try the code is void, and the verify service says so.
   */
  verifyCodeChecks: {
    points: AccountLimits.codeMaxWrongTries,
    durationMs: AccountLimits.codeTtlMs,
    message: () => ({ ...message('limits.codeTries'), field: 'code' }),
  },
  /**
   * Chat messages per member per minute. The admin sets the real number (`chatQuota`); `points`
   * is the most the setting allows, and the caller passes the current value.
   */
  chatMessagesPerMember: {
    points: 10_000,
    durationMs: MINUTE,
    message: (_wait, limit) => message('limits.chatMessages', { limit }),
  },
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof limitSpecs;

/**
 * The growing wait of a sign-in on an account that has failed often (DESIGN 7): it slows a
 * guesser who solves captchas without ever refusing the owner.
 */
const signInDelay = {
  afterFailures: 10,
  stepMs: 250,
  maxMs: 3_000,
} as const;

/** The wait before checking a password on an account with this many recent failures. */
export function signInDelayMs(failures: number): number {
  const over = failures - signInDelay.afterFailures;
  return over < 0 ? 0 : Math.min(signInDelay.maxMs, (over + 1) * signInDelay.stepMs);
}
