import type { CaptchaVerifier } from '../auth/index';
import type { CaptchaService } from './captcha.service';
import { clientIdOf } from './client-id';

/**
 * The login hook of features/auth backed by the image captcha: needed after 3 failures of the
 * account or the address, or always, or never (`loginCaptcha`).
 */
export function imageLoginCaptcha(captcha: CaptchaService): CaptchaVerifier {
  return {
    checkLogin: (attempt, req) => captcha.checkLogin(attempt, clientIdOf(req)),
    requiredAfter: (failures) => captcha.loginNeedsCaptcha(failures),
  };
}
