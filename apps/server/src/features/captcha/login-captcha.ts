import type { CaptchaVerifier } from '../auth/captcha';
import { clientIdOf } from './client-id';

/**
 * The login hook of features/auth backed by the image captcha of the app serving the request:
 * needed after 3 failures of the account or the address, or always, or never (`loginCaptcha`).
 */
export const imageLoginCaptcha: CaptchaVerifier = {
  checkLogin: (attempt, req) => req.server.accounts.captcha.checkLogin(attempt, clientIdOf(req)),
  requiredAfter: (failures, req) => req.server.accounts.captcha.loginNeedsCaptcha(failures),
};
