import type { AreaName } from '@atrium/shared/areas';
import { createHmac, randomBytes } from 'node:crypto';
import { Code, Limits } from '@atrium/shared';
import {
  AccountLimits,
  loginCaptchaModes,
  type LoginCaptchaMode,
} from '@atrium/shared/contract/accounts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../bus/types';
import { addressKey } from '../../http/client-address';
import { ApiError, message } from '../../http/envelope';
import type { RateLimits } from '../../http/rate-limits';
import { safeEqual } from '../../http/tokens';
import type { SettingsRepository } from '../../db/settings.repository';
import type { CaptchaVerdict, LoginAttempt } from '../auth/index';
import { captchaImageId, captchaText, drawCaptcha, pngDataUrl } from './captcha.image';

export type CaptchaArea = AreaName;

/** Settings key of the login captcha rule (DESIGN 7). */
export const LOGIN_CAPTCHA_SETTING = 'loginCaptcha';

const CaptchaMessages = {
  required: { ...message('account.captchaRequired'), field: 'captcha' },
  wrong: { ...message('account.captchaWrong'), field: 'captcha' },
} as const;

/**
 * The image captcha (DESIGN 7): 4 characters, case-insensitive, kept for 5 minutes as an HMAC
 * keyed by the server secret, bound to the anonymous client id cookie, and consumed by the first
 * check whether it passes or fails.
 */
export class CaptchaService {
  constructor(
    private readonly deps: {
      bus: Bus;
      limits: RateLimits;
      settings: SettingsRepository;
      secret: string;
      /**
       * Where each answer is written when ATRIUM_LOG_CAPTCHA_ANSWERS is on, so browser tests can
       * answer the picture, which no program should be able to read.
       */
      answerLog?: Pick<FastifyBaseLogger, 'warn'>;
    },
  ) {}

  private key(area: CaptchaArea, clientId: string): string {
    return `captcha:${area}:${clientId}`;
  }

  private digest(clientId: string, answer: string): string {
    return createHmac('sha256', this.deps.secret)
      .update(`captcha:${clientId}:${answer.trim().toUpperCase()}`)
      .digest('base64url');
  }

  /** Draws a new captcha for the client, replacing any earlier one. */
  async issue(
    area: CaptchaArea,
    clientId: string,
    ip: string,
  ): Promise<{ text: string; image: string }> {
    await this.deps.limits.consume('captchaImagesPerAddress', addressKey(ip));
    const text = captchaText();
    // The nonce names this one captcha, so two parallel checks can't both use it.
    const nonce = randomBytes(12).toString('base64url');
    await this.deps.bus.set(
      this.key(area, clientId),
      `${nonce}.${this.digest(clientId, text)}`,
      AccountLimits.captchaTtlMs,
    );
    const image = pngDataUrl(await drawCaptcha(text));
    this.deps.answerLog?.warn(
      { captchaAnswer: text, captchaImage: captchaImageId(image) },
      'captcha answer (ATRIUM_LOG_CAPTCHA_ANSWERS is on)',
    );
    return { text, image };
  }

  /** True when `answer` matches the client's captcha; the captcha is gone afterwards either way. */
  async check(area: CaptchaArea, clientId: string | undefined, answer: string): Promise<boolean> {
    if (!clientId) return false;
    const { bus } = this.deps;
    const key = this.key(area, clientId);
    const stored = await bus.get(key);
    if (!stored) return false;
    await bus.del(key);
    const [nonce = '', digest = ''] = stored.split('.');
    const first = (await bus.incr(`captcha-used:${nonce}`, AccountLimits.captchaTtlMs)) === 1;
    return first && answer.trim() !== '' && safeEqual(digest, this.digest(clientId, answer));
  }

  /** Throws code 1002 unless the answer is right. */
  async require(area: CaptchaArea, clientId: string | undefined, answer: string): Promise<void> {
    if (answer.trim() === '') throw new ApiError(CaptchaMessages.required, Code.CaptchaWrong);
    if (!(await this.check(area, clientId, answer))) {
      throw new ApiError(CaptchaMessages.wrong, Code.CaptchaWrong);
    }
  }

  async loginMode(): Promise<LoginCaptchaMode> {
    const value = await this.deps.settings.get(LOGIN_CAPTCHA_SETTING);
    return loginCaptchaModes.find((m) => m === value) ?? 'auto';
  }

  /** Whether a login after this many recent failures (of the account or the IP) needs the captcha. */
  async loginNeedsCaptcha(failures: number): Promise<boolean> {
    const mode = await this.loginMode();
    return mode === 'always' || (mode === 'auto' && failures >= Limits.loginFailuresBeforeCaptcha);
  }

  async checkLogin(attempt: LoginAttempt, clientId: string | undefined): Promise<CaptchaVerdict> {
    if (!(await this.loginNeedsCaptcha(attempt.failures))) return 'ok';
    if (attempt.answer === undefined || attempt.answer.trim() === '') return 'required';
    return (await this.check(attempt.area, clientId, attempt.answer)) ? 'ok' : 'wrong';
  }
}
