import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { AccountLimits, parseTarget, type Target } from '@atrium/shared/contract/accounts';
import type { Language } from '@atrium/shared/messages/catalogue';
import type { Bus } from '../../bus/types';
import { addressKey } from '../../http/client-address';
import { ApiError, message, type MessageRef } from '../../http/envelope';
import type { RateLimits } from '../../http/rate-limits';
import { safeEqual } from '../../http/tokens';
import type { CaptchaService } from '../captcha/index';
import { usernameTaken, type MembersService } from '../members/index';
import type { Messenger } from './messenger';

const codeField = message('field.code');
const aboutCode = (ref: MessageRef): MessageRef => ({ ...ref, field: 'code' });

export const VerifyMessages = {
  sent: message('account.codeSent'),
  notSent: message('account.codeNotSent'),
  expired: aboutCode(message('account.codeExpired', { field: codeField })),
  tooManyTries: aboutCode(message('account.codeTooManyTries', { field: codeField })),
  wrong: (left: number) =>
    aboutCode(
      left === 1
        ? message('account.codeWrongLastTry', { field: codeField })
        : message('account.codeWrong', { field: codeField, left }),
    ),
} as const;

/** The target of a request body; the schema has already checked that it parses. */
export function targetOf(raw: string): Target {
  const target = parseTarget(raw);
  if (!target) throw new ApiError({ ...message('account.targetInvalid'), field: 'target' });
  return target;
}

/**
 * Verification codes (DESIGN 7): 6 digits from the CSPRNG, kept 10 minutes as an HMAC of target
 * and code, void after 5 wrong tries, at most one send per target per 60 s and a daily cap per
 * target and per client address; every send needs a valid captcha.
 */
export class VerifyService {
  constructor(
    private readonly deps: {
      bus: Bus;
      limits: RateLimits;
      captcha: CaptchaService;
      messenger: Messenger;
      members: Pick<MembersService, 'languageByContact' | 'findByLogin'>;
      secret: string;
      now: () => number;
    },
  ) {}

  private digest(target: Target, code: string): string {
    return createHmac('sha256', this.deps.secret)
      .update(`verify:${target.kind}:${target.value}:${code}`)
      .digest('base64url');
  }

  private codeKey(target: Target): string {
    return `verify:code:${target.kind}:${target.value}`;
  }

  async send(input: {
    target: Target;
    captcha: string;
    /** The username of the sign-up this code is for: refused when taken, before anything is sent. */
    username?: string | undefined;
    clientId: string | undefined;
    ip: string;
    /** The request's language: the code's text is in it unless a member with a language owns the target. */
    lang: Language;
  }): Promise<{ wait: number }> {
    const { bus, limits, captcha, messenger, members } = this.deps;
    const { target, ip } = input;
    await captcha.require('member', input.clientId, input.captcha);
    // After the captcha, so each name asked about costs one, as the sign-up itself always did;
    // before the limits, so choosing another name can ask again at once.
    if (input.username !== undefined && (await members.findByLogin(input.username))) {
      throw new ApiError(usernameTaken(input.username));
    }

    const targetKey = `${target.kind}:${target.value}`;
    await limits.consumeAll([
      ['verifyResendPerTarget', targetKey],
      ['verifyDailyPerTarget', targetKey],
      ['verifyDailyPerAddress', addressKey(ip)],
    ]);

    const code = String(randomInt(0, 10 ** AccountLimits.codeLength)).padStart(
      AccountLimits.codeLength,
      '0',
    );
    // A fresh nonce per code: its wrong-try counter starts at zero, and an older code is void.
    const nonce = randomBytes(12).toString('base64url');
    await bus.set(
      this.codeKey(target),
      `${nonce}.${this.digest(target, code)}`,
      AccountLimits.codeTtlMs,
    );
    // The member's own language (a password reset); before there is one (registration), the
    // request's. Nothing of which is said in the answer.
    const lang = (await members.languageByContact(target.kind, target.value)) ?? input.lang;
    const delivery = await messenger.sendCode(target, code, ip, lang);
    if (!delivery.ok) {
      await Promise.all([
        bus.del(this.codeKey(target)),
        limits.reset('verifyResendPerTarget', targetKey),
      ]);
      throw new ApiError(VerifyMessages.notSent);
    }
    return { wait: Math.ceil(limits.windowMs('verifyResendPerTarget') / 1000) };
  }

  /**
   * Uses up the code sent to `target`, or throws. Every check counts as a try before the code is
   * compared, so parallel guesses can't get past the limit: after 5 wrong tries even the right
   * code is refused. `beforeUse` runs once the code is known right: when it throws, the code is
   * left for another try (the try stays counted, so it can't be asked without end).
   */
  async consume(target: Target, code: string, beforeUse?: () => Promise<void>): Promise<void> {
    const { bus, limits } = this.deps;
    const key = this.codeKey(target);
    const stored = await bus.get(key);
    if (!stored) throw new ApiError(VerifyMessages.expired);
    const [nonce = '', digest = ''] = stored.split('.');
    const tries = (await limits.count('verifyCodeChecks', nonce)).count;
    if (tries > AccountLimits.codeMaxWrongTries) {
      await bus.del(key);
      throw new ApiError(VerifyMessages.tooManyTries);
    }
    if (!safeEqual(digest, this.digest(target, code.trim()))) {
      const left = AccountLimits.codeMaxWrongTries - tries;
      if (left === 0) {
        await bus.del(key);
        throw new ApiError(VerifyMessages.tooManyTries);
      }
      throw new ApiError(VerifyMessages.wrong(left));
    }
    await beforeUse?.();
    if ((await bus.incr(`verify:used:${nonce}`, AccountLimits.codeTtlMs)) > 1) {
      throw new ApiError(VerifyMessages.expired);
    }
    await bus.del(key);
  }
}
