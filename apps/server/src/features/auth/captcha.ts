import type { AreaName } from '@atrium/shared/areas';
import type { FastifyRequest } from 'fastify';

export interface LoginAttempt {
  area: AreaName;
  username: string;
  ip: string;
  /** Recent failed logins for this account or IP, whichever is higher. */
  failures: number;
  /** The captcha answer sent with the login, if any. */
  answer: string | undefined;
}

export type CaptchaVerdict = 'ok' | 'required' | 'wrong';

/**
 * Where the image captcha plugs into login (DESIGN 7). buildApp uses the image captcha of
 * features/captcha unless its deps name another verifier (the test app uses `captchaNotRequired`).
 */
export interface CaptchaVerifier {
  checkLogin(attempt: LoginAttempt, req: FastifyRequest): Promise<CaptchaVerdict>;
  /** Whether the next login after this many failures will need the captcha, so a failed login can say so. */
  requiredAfter?(failures: number, req: FastifyRequest): Promise<boolean>;
}

export const captchaNotRequired: CaptchaVerifier = {
  checkLogin: () => Promise.resolve('ok'),
};
