import type { FastifyRequest } from 'fastify';

export interface LoginAttempt {
  area: 'admin' | 'member';
  username: string;
  ip: string;
  /** Recent failed logins for this account or IP, whichever is higher. */
  failures: number;
  /** The captcha answer sent with the login, if any. */
  answer: string | undefined;
}

export type CaptchaVerdict = 'ok' | 'required' | 'wrong';

/**
 * Where the image captcha plugs into login (DESIGN 7). The captcha feature supplies a verifier
 * through buildApp deps; until then no login needs one.
 */
export interface CaptchaVerifier {
  checkLogin(attempt: LoginAttempt, req: FastifyRequest): Promise<CaptchaVerdict>;
}

export const captchaNotRequired: CaptchaVerifier = {
  checkLogin: () => Promise.resolve('ok'),
};
