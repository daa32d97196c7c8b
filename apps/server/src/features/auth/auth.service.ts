import type { AreaName } from '@atrium/shared/areas';
import { Code, type LoginRequest, type LoginResponse } from '@atrium/shared';
import type { FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { addressKey } from '../../http/client-address';
import { ApiError, message } from '../../http/envelope';
import { signInDelayMs, type LimitName } from '../../http/limits';
import type { RateLimits } from '../../http/rate-limits';
import { verifyPassword } from '../../security/passwords';
import type { AdminsService } from '../admins/index';
import type { MembersService } from '../members/index';
import type { CaptchaVerifier } from './captcha';
import type { SessionsService } from './sessions.service';

/** The one answer to an unknown, wrong or disabled account. */
export const WRONG_LOGIN = message('account.wrongLogin');

type Area = AreaName;

interface Subject {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  passwordHash: string;
  disabled: boolean;
}

export class AuthService {
  constructor(
    private readonly deps: {
      limits: RateLimits;
      sessions: SessionsService;
      admins: AdminsService;
      members: MembersService;
      captcha: CaptchaVerifier;
    },
  ) {}

  /**
   * Checks the password and opens a session. Unknown, wrong and disabled accounts all get the
   * same answer, and cost the same time, so nobody learns which accounts exist.
   *
   * Limits (DESIGN 7): every attempt counts against its address. A failure is counted (reserved)
   * before the password is checked and given back when it is right, so a burst of parallel
   * guesses sees its own attempts: the account's count decides the captcha, and the hard blocks
   * (the address; the account from that address) count only attempts past the captcha. Failures
   * on the account alone only raise the bar (captcha, then a growing wait): nobody can lock the
   * owner out.
   */
  async login(area: Area, body: LoginRequest, req: FastifyRequest): Promise<LoginResponse> {
    const { limits, captcha } = this.deps;
    const address = addressKey(req.ip);
    const account = `${area}:${body.username.trim().toLowerCase()}`;
    const pair = `${account}@${address}`;
    await limits.consume('signInPerAddress', address);

    const reserved: [LimitName, string][] = [];
    let failed = false;
    try {
      // The account's failures decide the captcha: reserved first, so of any burst at most
      // `captchaAfterFailures` attempts get past without one.
      const accountHit = await limits.count('signInFailuresPerAccount', account);
      reserved.push(['signInFailuresPerAccount', account]);
      const addressFailures = (await limits.peek('signInFailuresPerAddress', address)).count;
      const failures = Math.max(accountHit.count - 1, addressFailures);

      const verdict = await captcha.checkLogin(
        { area, username: body.username, ip: address, failures, answer: body.captcha },
        req,
      );
      if (verdict !== 'ok') {
        const ref =
          verdict === 'required'
            ? message('account.captchaRequired')
            : message('account.captchaWrong');
        throw new ApiError({ ...ref, field: 'captcha' }, Code.CaptchaWrong, {
          captchaRequired: true,
        });
      }
      // The hard blocks count only attempts that will have their password checked.
      await limits.consumeAll([
        ['signInFailuresPerAddress', address],
        ['signInFailuresPerAccountAddress', pair],
      ]);
      reserved.push(
        ['signInFailuresPerAddress', address],
        ['signInFailuresPerAccountAddress', pair],
      );
      const wait = signInDelayMs(accountHit.count - 1);
      if (wait > 0) await sleep(wait);

      const subject = await this.find(area, body.username);
      const passwordOk = await verifyPassword(subject?.passwordHash, body.password);
      if (!subject || !passwordOk || subject.disabled) {
        failed = true;
        const captchaRequired = await captcha.requiredAfter?.(failures + 1, req);
        throw new ApiError(WRONG_LOGIN, Code.Failure, captchaRequired ? { captchaRequired } : null);
      }

      await limits.reset('signInFailuresPerAccountAddress', pair);
      // Their e-mails and SMS texts are written in the language they last signed in with.
      if (area === 'member') await this.deps.members.setLanguage(subject.id, req.lang);
      const { token } = await this.deps.sessions.issue(area, subject.id, {
        ip: address,
        userAgent: req.headers['user-agent'] ?? '',
      });
      return {
        user: {
          id: subject.id,
          username: subject.username,
          nickname: subject.nickname,
          avatar: subject.avatar,
        },
        token,
      };
    } finally {
      // Only a wrong password stays counted; a refused captcha or a success gives the attempt back.
      if (!failed) await Promise.all(reserved.map(([name, key]) => limits.refund(name, key)));
    }
  }

  private find(area: Area, login: string): Promise<Subject | undefined> {
    return area === 'admin'
      ? this.deps.admins.findByUsername(login.trim())
      : this.deps.members.findByLogin(login);
  }

  logout(sessionId: number): Promise<void> {
    return this.deps.sessions.revoke(sessionId);
  }
}
