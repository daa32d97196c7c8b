import { Code, type LoginRequest, type LoginResponse } from '@atrium/shared';
import type { FastifyRequest } from 'fastify';
import type { Bus } from '../../bus/types';
import { ApiError } from '../../http/envelope';
import { verifyPassword } from '../../security/passwords';
import type { AdminsService } from '../admins/admins.service';
import type { MembersService } from '../members/members.service';
import type { CaptchaVerifier } from './captcha';
import type { SessionsService } from './sessions.service';

/** Failed-login limits (DESIGN 9): per account and per client address, in a fixed window. */
export const LoginLimits = {
  windowMs: 15 * 60_000,
  perAccount: 10,
  perIp: 30,
} as const;

export const WRONG_LOGIN = 'Wrong username or password';

type Area = 'admin' | 'member';

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
      bus: Bus;
      sessions: SessionsService;
      admins: AdminsService;
      members: MembersService;
      captcha: CaptchaVerifier;
    },
  ) {}

  private keys(area: Area, username: string, ip: string) {
    return {
      account: `login-fail:${area}:user:${username.trim().toLowerCase()}`,
      ip: `login-fail:${area}:ip:${ip}`,
    };
  }

  private async tooMany(key: string): Promise<ApiError> {
    const left = (await this.deps.bus.ttl(key)) ?? LoginLimits.windowMs;
    const minutes = Math.max(1, Math.ceil(left / 60_000));
    return new ApiError(
      `Too many attempts, try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
      Code.TooManyRequests,
    );
  }

  /**
   * Checks the password and opens a session. Unknown, wrong and disabled accounts all get the
   * same answer, and cost the same time, so nobody learns which accounts exist.
   */
  async login(area: Area, body: LoginRequest, req: FastifyRequest): Promise<LoginResponse> {
    const { bus, captcha } = this.deps;
    const keys = this.keys(area, body.username, req.ip);
    const [accountFailures, ipFailures] = await Promise.all([
      bus.get(keys.account),
      bus.get(keys.ip),
    ]);
    const failures = { account: Number(accountFailures ?? 0), ip: Number(ipFailures ?? 0) };
    if (failures.account >= LoginLimits.perAccount) throw await this.tooMany(keys.account);
    if (failures.ip >= LoginLimits.perIp) throw await this.tooMany(keys.ip);

    const verdict = await captcha.checkLogin(
      {
        area,
        username: body.username,
        ip: req.ip,
        failures: Math.max(failures.account, failures.ip),
        answer: body.captcha,
      },
      req,
    );
    if (verdict !== 'ok') {
      throw new ApiError(
        verdict === 'required' ? 'Please enter the captcha' : 'Wrong captcha',
        Code.CaptchaWrong,
        {
          captchaRequired: true,
        },
      );
    }

    const subject = await this.find(area, body.username);
    const passwordOk = await verifyPassword(subject?.passwordHash, body.password);
    if (!subject || !passwordOk || subject.disabled) {
      const counts = await Promise.all([
        bus.incr(keys.account, LoginLimits.windowMs),
        bus.incr(keys.ip, LoginLimits.windowMs),
      ]);
      const captchaRequired = await captcha.requiredAfter?.(Math.max(...counts), req);
      throw new ApiError(WRONG_LOGIN, Code.Failure, captchaRequired ? { captchaRequired } : null);
    }

    await bus.del(keys.account);
    const { token } = await this.deps.sessions.issue(area, subject.id, {
      ip: req.ip,
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
