import type { AreaName } from '@atrium/shared/areas';
import { Code, type LoginResponse } from '@atrium/shared';
import type { CaptchaImageResponse } from '@atrium/shared/contract/accounts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, withMovableSystemClock } from '../../testing/test-app';
import { testBrowser } from '../account/accounts.testing';
import { answerCaptcha } from './captcha.testing';
import { CLIENT_COOKIE } from './client-id';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ deps: { captcha: 'image' } });
});
afterAll(async () => {
  await t.cleanup();
});

/** verify/send is the plainest call that checks a captcha; a new target each time avoids the resend wait. */
let targets = 0;
const spend = (browser: ReturnType<typeof testBrowser>, captcha: string) =>
  browser.post('/api/verify/send', { target: `captcha${++targets}@example.com`, captcha });

describe('captcha image', () => {
  withMovableSystemClock();
  it('answers a PNG data URL and binds it to an httpOnly SameSite=Lax client cookie', async () => {
    for (const url of ['/api/captcha/image', '/admin/api/captcha/image']) {
      const browser = testBrowser(t);
      let cookie: { name: string; value: string } | undefined;
      const answer = await answerCaptcha(t.app.features.captcha, async () => {
        const { res, json } = await browser.post<CaptchaImageResponse>(url);
        expect(json.code).toBe(0);
        expect(json.data.image).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
        const png = Buffer.from(json.data.image.split(',')[1] ?? '', 'base64');
        expect(await sharp(png).metadata()).toMatchObject({
          format: 'png',
          width: 240,
          height: 80,
        });
        cookie = res.cookies.find((c) => c.name === CLIENT_COOKIE);
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
        return json.data.image;
      });
      expect(answer).toMatch(/^[A-Z2-9]{4}$/);
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
    }
  });

  it('draws a new text each time', async () => {
    const browser = testBrowser(t);
    const texts = new Set<string>();
    for (let i = 0; i < 5; i++) texts.add(await browser.captcha());
    expect(texts.size).toBeGreaterThan(1);
  });

  it('keeps the same client id across images', async () => {
    const browser = testBrowser(t);
    await browser.captcha();
    const first = browser.cookies.get(CLIENT_COOKIE);
    await browser.captcha();
    expect(browser.cookies.get(CLIENT_COOKIE)).toBe(first);
  });
});

describe('captcha check', () => {
  withMovableSystemClock();
  it('works once: the same right answer is refused the second time', async () => {
    const browser = testBrowser(t);
    const answer = await browser.captcha();
    expect((await spend(browser, answer)).json.code).toBe(0);
    expect((await spend(browser, answer)).json).toEqual({
      code: Code.CaptchaWrong,
      msg: '图形验证码错误',
      data: { error: 'account.captchaWrong', params: {}, field: 'captcha' },
    });
    browser.lang = 'en';
    expect((await spend(browser, answer)).json).toMatchObject({
      code: Code.CaptchaWrong,
      msg: 'Wrong captcha',
      data: { error: 'account.captchaWrong', field: 'captcha' },
    });
  });

  it('ignores case', async () => {
    const browser = testBrowser(t);
    const answer = await browser.captcha();
    expect((await spend(browser, answer.toLowerCase())).json.code).toBe(0);
  });

  it('is used up by a wrong answer too', async () => {
    const browser = testBrowser(t);
    const answer = await browser.captcha();
    const wrong = answer.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await spend(browser, wrong)).json.code).toBe(Code.CaptchaWrong);
    expect((await spend(browser, answer)).json.code).toBe(Code.CaptchaWrong);
  });

  it('only counts for the browser it was shown to', async () => {
    const shown = testBrowser(t);
    const other = testBrowser(t);
    await other.captcha();
    const answer = await shown.captcha();
    expect((await spend(other, answer)).json.code).toBe(Code.CaptchaWrong);
    expect((await spend(testBrowser(t), answer)).json.code).toBe(Code.CaptchaWrong);
    expect((await spend(shown, answer)).json.code).toBe(0);
  });

  it('is void after 5 minutes', async () => {
    const browser = testBrowser(t);
    const answer = await browser.captcha();
    t.clock.advance(5 * 60_000 + 1);
    expect((await spend(browser, answer)).json.code).toBe(Code.CaptchaWrong);
  });

  it('asks for the captcha when none is sent', async () => {
    const browser = testBrowser(t);
    await browser.captcha();
    expect((await spend(browser, '')).json).toMatchObject({
      code: Code.CaptchaWrong,
      msg: '请输入图形验证码',
      data: { error: 'account.captchaRequired', field: 'captcha' },
    });
    browser.lang = 'en';
    expect((await spend(browser, '')).json.msg).toBe('Please enter the captcha');
  });

  it('keeps the admin and member captchas apart', async () => {
    const browser = testBrowser(t);
    const adminAnswer = await browser.captcha('admin');
    expect((await spend(browser, adminAnswer)).json.code).toBe(Code.CaptchaWrong);
  });

  it('limits how many images one address may draw per minute', async () => {
    const browser = testBrowser(t, '10.9.9.9');
    for (let i = 0; i < 30; i++) {
      expect((await browser.post('/api/captcha/image')).json.code).toBe(0);
    }
    expect((await browser.post('/api/captcha/image')).json.code).toBe(Code.TooManyRequests);
    t.clock.advance(60_000);
    expect((await browser.post('/api/captcha/image')).json.code).toBe(0);
  });
});

describe('login captcha', () => {
  // Its own app, so failures from other tests' address don't count here.
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp({ deps: { captcha: 'image' } });
  });
  afterAll(async () => {
    await c.cleanup();
  });

  const login = (
    browser: ReturnType<typeof testBrowser>,
    area: AreaName,
    username: string,
    password: string,
    captcha?: string,
  ) =>
    browser.post<LoginResponse>(area === 'admin' ? '/admin/api/auth/login' : '/api/auth/login', {
      username,
      password,
      ...(captcha === undefined ? {} : { captcha }),
    });

  for (const area of ['member', 'admin'] as const) {
    it(`${area}: needed after 3 failures, and the third failure says so`, async () => {
      const account =
        area === 'admin'
          ? (await c.createAdmin()).admin.username
          : (await c.createMember()).member.username;
      const password = area === 'admin' ? 'correct horse battery' : 'member password 1';
      const browser = testBrowser(c, area === 'admin' ? '10.1.0.1' : '10.1.0.2', 'en');
      const wrongLogin = { error: 'account.wrongLogin', params: {} };
      expect((await login(browser, area, account, 'wrong-1')).json).toEqual({
        code: Code.Failure,
        msg: 'Wrong username or password',
        data: wrongLogin,
      });
      await login(browser, area, account, 'wrong-2');
      expect((await login(browser, area, account, 'wrong-3')).json).toEqual({
        code: Code.Failure,
        msg: 'Wrong username or password',
        data: { ...wrongLogin, captchaRequired: true },
      });
      expect((await login(browser, area, account, password)).json).toEqual({
        code: Code.CaptchaWrong,
        msg: 'Please enter the captcha',
        data: {
          error: 'account.captchaRequired',
          params: {},
          field: 'captcha',
          captchaRequired: true,
        },
      });
      await browser.captcha(area);
      browser.lang = 'zh-CN';
      expect((await login(browser, area, account, password, 'ZZZZ')).json).toMatchObject({
        code: Code.CaptchaWrong,
        msg: '图形验证码错误',
        data: { captchaRequired: true, error: 'account.captchaWrong', field: 'captcha' },
      });
      const answer = await browser.captcha(area);
      const ok = await login(browser, area, account, password, answer);
      expect(ok.json.code).toBe(0);
      expect(ok.json.data.user.username).toBe(account);
    });
  }

  it('counts failures per address across accounts, without telling which accounts exist', async () => {
    const browser = testBrowser(c, '10.1.0.3');
    const { member, password } = await c.createMember();
    const answers = [
      (await login(browser, 'member', 'nobody_1', 'x1')).json,
      (await login(browser, 'member', member.username, 'x2')).json,
      (await login(browser, 'member', 'nobody_2', 'x3')).json,
    ];
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[2]?.data).toMatchObject({ captchaRequired: true });
    expect((await login(browser, 'member', member.username, password)).json.code).toBe(
      Code.CaptchaWrong,
    );
    const elsewhere = testBrowser(c, '10.1.0.4');
    expect((await login(elsewhere, 'member', member.username, password)).json.code).toBe(0);
  });

  it('follows the loginCaptcha setting: always or never', async () => {
    const { token } = await c.loginAdmin();
    const admin = testBrowser(c);
    const setMode = (mode: string) =>
      admin.post('/admin/api/system/login_captcha/save', { mode }, { area: 'admin', token });

    expect((await setMode('always')).json).toMatchObject({ code: 0, data: { mode: 'always' } });
    const { member, password } = await c.createMember();
    const browser = testBrowser(c, '10.1.0.5');
    expect((await login(browser, 'member', member.username, password)).json).toMatchObject({
      code: Code.CaptchaWrong,
      data: { captchaRequired: true },
    });
    const answer = await browser.captcha();
    expect((await login(browser, 'member', member.username, password, answer)).json.code).toBe(0);

    expect((await setMode('never')).json.code).toBe(0);
    const many = testBrowser(c, '10.1.0.6');
    for (let i = 0; i < 5; i++) {
      expect((await login(many, 'member', member.username, 'wrong')).json.data).toEqual({
        error: 'account.wrongLogin',
        params: {},
      });
    }
    expect((await login(many, 'member', member.username, password)).json.code).toBe(0);

    expect(
      (await admin.post('/admin/api/system/login_captcha/get', {}, { area: 'admin', token })).json
        .data,
    ).toEqual({ mode: 'never' });
    expect((await setMode('sometimes')).json.code).toBe(Code.Failure);
    await setMode('auto');
  });

  it('the setting needs the system/setting rule', async () => {
    const { token } = await c.loginAdmin({ rules: ['system/outbox'] });
    const browser = testBrowser(c);
    expect(
      (
        await browser.post(
          '/admin/api/system/login_captcha/save',
          { mode: 'never' },
          { area: 'admin', token },
        )
      ).json.code,
    ).toBe(Code.NoPermission);
  });
});
