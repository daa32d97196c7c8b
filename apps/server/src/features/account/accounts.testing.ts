import type { AreaName } from '@atrium/shared/areas';
import { TokenKey, XsrfCookie, XsrfHeader, type Envelope } from '@atrium/shared';
import type { CaptchaImageResponse } from '@atrium/shared/contract/accounts';
import type { Language } from '@atrium/shared/messages/catalogue';
import type { LightMyRequestResponse } from 'fastify';
import { TEST_XSRF, type TestApp } from '../../testing/test-app';
import { answerCaptcha } from '../captcha/captcha.testing';

export interface TestBrowser {
  cookies: Map<string, string>;
  /** The browser's language (sent as Accept-Language); none: the site's default, zh-CN. */
  lang: Language | undefined;
  post<T = unknown>(
    url: string,
    body?: unknown,
    as?: { area: AreaName; token: string },
  ): Promise<{ res: LightMyRequestResponse; json: Envelope<T> }>;
  /** Loads a captcha image like the page does and answers it. */
  captcha(area?: AreaName): Promise<string>;
  /** Asks for a verification code with a freshly solved captcha. */
  sendCode(target: string): Promise<Envelope<{ wait: number }>>;
}

/** A client that keeps its cookies (the captcha client id) and its address between calls. */
export function testBrowser(t: TestApp, remoteAddress = '127.0.0.1', lang?: Language): TestBrowser {
  const cookies = new Map<string, string>();
  const browser: TestBrowser = {
    cookies,
    lang,
    async post<T>(url: string, body: unknown = {}, as?: { area: AreaName; token: string }) {
      const jar = new Map(cookies);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (browser.lang) headers['accept-language'] = browser.lang;
      if (as) {
        jar.set(XsrfCookie, TEST_XSRF);
        headers[XsrfHeader] = TEST_XSRF;
        headers[as.area === 'admin' ? TokenKey.admin : TokenKey.member] = as.token;
      }
      if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await t.app.inject({
        method: 'POST',
        url,
        remoteAddress,
        headers,
        payload: JSON.stringify(body),
      });
      for (const c of res.cookies) cookies.set(c.name, c.value);
      return { res, json: res.json<Envelope<T>>() };
    },
    async captcha(area = 'member') {
      const url = area === 'admin' ? '/admin/api/captcha/image' : '/api/captcha/image';
      return answerCaptcha(t.app.features.captcha, async () => {
        const { json } = await browser.post<CaptchaImageResponse>(url);
        if (json.code !== 0) throw new Error(`captcha image failed: ${json.msg}`);
        return json.data.image;
      });
    },
    async sendCode(target) {
      const captcha = await browser.captcha();
      return (await browser.post<{ wait: number }>('/api/verify/send', { target, captcha })).json;
    },
  };
  return browser;
}

export { codeFromOutbox, lastSentTo } from '../verify/verify.testing';
