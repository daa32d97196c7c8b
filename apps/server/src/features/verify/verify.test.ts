import { Code, type LoginResponse } from '@atrium/shared';
import type { MessagingView, OutboxListResponse } from '@atrium/shared/contract/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, withMovableSystemClock } from '../../testing/test-app';
import { codeFromOutbox, testBrowser, type TestBrowser } from '../account/accounts.testing';
import { startSmtpServer, startWebhook } from './verify.testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

let n = 0;
const email = () => `user${++n}@example.com`;

/** A signed-in founder; the tests move the clock by days, so a fresh session each time. */
const admin = async () => ({ area: 'admin' as const, token: (await t.loginAdmin()).token });

/** Resets a member's password with `code`: the call that proves a code verifies its target. */
const reset = (browser: TestBrowser, target: string, code: string, password = 'new password 2') =>
  browser.post('/api/auth/password_reset', { target, code, password });

const login = (username: string, password: string) =>
  t.post<LoginResponse>('/api/auth/login', { username, password });

const saveMessaging = async (browser: TestBrowser, patch: Record<string, unknown>) =>
  browser.post<MessagingView>(
    '/admin/api/system/message/save',
    {
      emailTransport: 'log',
      smsTransport: 'log',
      smtp: { host: '', port: 587, security: 'starttls', user: '', from: '' },
      sms: { url: '', template: 'Your verification code is {code}.' },
      ...patch,
    },
    await admin(),
  );

describe('sending a code (log transport)', () => {
  withMovableSystemClock();
  it('puts a 6-digit code in the outbox and answers the wait', async () => {
    const browser = testBrowser(t);
    const target = email();
    expect(await browser.sendCode(target)).toEqual({
      code: 0,
      msg: '验证码已发送',
      data: { wait: 60 },
    });
    expect(await codeFromOutbox(t, target)).toMatch(/^\d{6}$/);
  });

  it('needs a right captcha', async () => {
    const browser = testBrowser(t);
    await browser.captcha();
    const { json } = await browser.post('/api/verify/send', { target: email(), captcha: 'ZZZZ' });
    expect(json.code).toBe(Code.CaptchaWrong);
  });

  it('takes e-mail addresses and phone numbers only', async () => {
    const browser = testBrowser(t);
    for (const target of ['not an address', 'a@b', '12345', '+0123456789']) {
      const { json } = await browser.post('/api/verify/send', {
        target,
        captcha: await browser.captcha(),
      });
      expect(json, target).toMatchObject({
        code: Code.Failure,
        msg: '请输入有效的邮箱地址或手机号',
        data: { error: 'account.targetInvalid', field: 'target' },
      });
    }
    expect((await browser.sendCode('+86 138-0013-8000')).code).toBe(0);
    expect(await codeFromOutbox(t, '+8613800138000')).toMatch(/^\d{6}$/);
  });

  it('refuses a resend to the same target within 60 s and says how long to wait', async () => {
    const browser = testBrowser(t);
    const target = email();
    expect((await browser.sendCode(target)).code).toBe(0);
    t.clock.advance(20_000);
    expect(await browser.sendCode(target.toUpperCase())).toMatchObject({
      code: Code.TooManyRequests,
      data: { wait: 40, error: 'limits.codeResend' },
    });
    expect((await testBrowser(t, '10.2.0.1').sendCode(target)).data).toMatchObject({ wait: 40 });
    expect((await browser.sendCode(email())).code).toBe(0);
    t.clock.advance(40_000);
    expect((await browser.sendCode(target)).code).toBe(0);
  });

  it('waits as long as ATRIUM_VERIFY_RESEND_SECONDS says, and answers that wait', async () => {
    const quick = await createTestApp({ env: { ATRIUM_VERIFY_RESEND_SECONDS: '5' } });
    try {
      const browser = testBrowser(quick);
      const target = email();
      expect((await browser.sendCode(target)).data).toEqual({ wait: 5 });
      expect(await browser.sendCode(target)).toMatchObject({
        code: Code.TooManyRequests,
        data: { wait: 5 },
      });
      quick.clock.advance(5_000);
      expect((await browser.sendCode(target)).code).toBe(0);
    } finally {
      await quick.cleanup();
    }
  });

  it('caps codes per target per day at 10', async () => {
    const browser = testBrowser(t, '10.2.0.2');
    const target = email();
    for (let i = 0; i < 10; i++) {
      expect((await browser.sendCode(target)).code, `send ${i + 1}`).toBe(0);
      t.clock.advance(60_000);
    }
    expect(await browser.sendCode(target)).toMatchObject({
      code: Code.TooManyRequests,
      data: { error: 'limits.codesToTarget' },
    });
    t.clock.advance(24 * 60 * 60_000);
    expect((await browser.sendCode(target)).code).toBe(0);
  });

  it('caps codes per client address per day at 50', async () => {
    const browser = testBrowser(t, '10.2.0.3');
    for (let i = 0; i < 50; i++) {
      expect((await browser.sendCode(email())).code).toBe(0);
      // Stays under the captcha image limit of 30 a minute.
      t.clock.advance(2_100);
    }
    expect(await browser.sendCode(email())).toMatchObject({
      code: Code.TooManyRequests,
      data: { error: 'limits.codesFromNetwork' },
    });
    expect((await testBrowser(t, '10.2.0.4').sendCode(email())).code).toBe(0);
  });
});

describe('checking a code', () => {
  it('is refused after 5 wrong tries even when the 6th is right', async () => {
    const target = email();
    const { member, password } = await t.createMember({ email: target });
    const browser = testBrowser(t, '127.0.0.1', 'en');
    await browser.sendCode(target);
    const code = await codeFromOutbox(t, target);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await reset(browser, target, wrong)).json.msg);
    expect(answers).toEqual([
      'Verification code is wrong, 4 tries left',
      'Verification code is wrong, 3 tries left',
      'Verification code is wrong, 2 tries left',
      'Verification code is wrong, 1 try left',
      'Verification code: too many wrong tries, request a new code',
    ]);
    expect((await reset(browser, target, code)).json).toMatchObject({ code: Code.Failure });
    expect((await login(member.username, password)).json.code).toBe(0);
  });

  it('still takes the right code after 4 wrong tries, and only once', async () => {
    const target = email();
    const { member } = await t.createMember({ email: target });
    const browser = testBrowser(t);
    await browser.sendCode(target);
    const code = await codeFromOutbox(t, target);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) await reset(browser, target, wrong);
    expect((await reset(browser, target, code, 'after four 44')).json.code).toBe(0);
    expect((await login(member.username, 'after four 44')).json.code).toBe(0);
    expect((await reset(browser, target, code, 'second use 55')).json).toMatchObject({
      code: Code.Failure,
      msg: '验证码错误或已过期，请重新获取',
      data: { error: 'account.codeExpired', field: 'code' },
    });
  });

  it('does not verify another target', async () => {
    const a = email();
    const b = email();
    const { member: memberB } = await t.createMember({ email: b });
    await t.createMember({ email: a });
    const browser = testBrowser(t);
    await browser.sendCode(a);
    const code = await codeFromOutbox(t, a);
    expect((await reset(browser, b, code, 'stolen pass 1')).json.code).toBe(Code.Failure);
    expect((await login(memberB.username, 'stolen pass 1')).json.code).toBe(Code.Failure);
    expect((await reset(browser, a, code)).json.code).toBe(0);
  });

  it('expires after 10 minutes', async () => {
    const target = email();
    await t.createMember({ email: target });
    const browser = testBrowser(t);
    await browser.sendCode(target);
    const code = await codeFromOutbox(t, target);
    t.clock.advance(10 * 60_000 + 1);
    expect((await reset(browser, target, code)).json.msg).toBe('验证码错误或已过期，请重新获取');
  });

  it('a new code replaces the previous one', async () => {
    const target = email();
    await t.createMember({ email: target });
    const browser = testBrowser(t);
    await browser.sendCode(target);
    const first = await codeFromOutbox(t, target);
    t.clock.advance(60_000);
    await browser.sendCode(target);
    const second = await codeFromOutbox(t, target);
    if (first !== second)
      expect((await reset(browser, target, first)).json.code).toBe(Code.Failure);
    expect((await reset(browser, target, second)).json.code).toBe(0);
  });
});

describe('outbox (admin)', () => {
  it('lists messages newest first with the target masked', async () => {
    const browser = testBrowser(t, '10.3.0.1', 'en');
    await browser.sendCode('alice@example.org');
    await browser.sendCode('13812345678');
    const { json } = await browser.post<OutboxListResponse>(
      '/admin/api/system/outbox/list',
      { page: 1, pageSize: 2 },
      await admin(),
    );
    expect(json.code).toBe(0);
    expect(json.data.pageSize).toBe(2);
    expect(json.data.total).toBeGreaterThanOrEqual(2);
    expect(json.data.records.map((r) => [r.target, r.channel, r.transport, r.status])).toEqual([
      ['138****5678', 'phone', 'log', 'logged'],
      ['a***@example.org', 'email', 'log', 'logged'],
    ]);
    expect(JSON.stringify(json.data)).not.toContain('alice@');
    expect(JSON.stringify(json.data)).not.toContain('13812345678');
    expect(json.data.records[1]?.subject).toBe('Atrium verification code');
  });

  it('needs the system/outbox rule; transports need system/message', async () => {
    const browser = testBrowser(t);
    const { token } = await t.loginAdmin({ rules: ['system/message'] });
    const as = { area: 'admin' as const, token };
    expect((await browser.post('/admin/api/system/outbox/list', {}, as)).json.code).toBe(
      Code.NoPermission,
    );
    expect((await browser.post('/admin/api/system/message/get', {}, as)).json.code).toBe(0);
    const { token: other } = await t.loginAdmin({ rules: ['system/outbox'] });
    const as2 = { area: 'admin' as const, token: other };
    expect((await browser.post('/admin/api/system/outbox/list', {}, as2)).json.code).toBe(0);
    expect((await browser.post('/admin/api/system/message/get', {}, as2)).json.code).toBe(
      Code.NoPermission,
    );
    expect((await browser.post('/admin/api/system/outbox/list', {})).json.code).toBe(
      Code.NotLoggedIn,
    );
  });
});

describe('SMTP transport', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const adminBrowser = () => testBrowser(t);
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: 'mailer', pass: 'smtp-pass-Secret9' });
  });
  afterAll(async () => {
    await smtp.close();
  });
  afterEach(async () => {
    await saveMessaging(adminBrowser(), {});
  });

  const useSmtp = (password?: string) =>
    saveMessaging(adminBrowser(), {
      emailTransport: 'smtp',
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        user: 'mailer',
        ...(password === undefined ? {} : { password }),
        from: 'Atrium <no-reply@atrium.test>',
      },
    });

  it('keeps the password encrypted and never shows it', async () => {
    const { json } = await useSmtp('smtp-pass-Secret9');
    expect(json.code).toBe(0);
    expect(json.data.smtp).toEqual({
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      user: 'mailer',
      from: 'Atrium <no-reply@atrium.test>',
      hasPassword: true,
    });
    const row = await t.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'messaging')
      .executeTakeFirstOrThrow();
    expect(row.value).not.toContain('smtp-pass-Secret9');
    expect(row.value).toMatch(/"passwordSealed":"v1\./);
  });

  it('delivers the code by mail; the mail code resets the password', async () => {
    await useSmtp('smtp-pass-Secret9');
    // Saving again without a password keeps the stored one.
    await useSmtp();
    const target = email();
    const { member } = await t.createMember({ email: target });
    const browser = testBrowser(t, '127.0.0.1', 'en');
    expect((await browser.sendCode(target)).code).toBe(0);
    const mail = smtp.mails.find((m) => m.to.includes(target));
    expect(mail?.from).toBe('no-reply@atrium.test');
    expect(mail?.raw).toMatch(/^Subject: Atrium verification code/m);
    const code = /code is (\d{6})\./.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.text).not.toMatch(/\p{Script=Han}/u);

    const outbox = await browser.post<OutboxListResponse>(
      '/admin/api/system/outbox/list',
      {},
      await admin(),
    );
    const entry = outbox.json.data.records[0];
    expect(entry).toMatchObject({ transport: 'smtp', status: 'sent', channel: 'email' });
    expect(entry?.body).toContain('******');
    expect(entry?.body).not.toContain(code);

    expect((await reset(browser, target, code, 'mailed pass 7')).json.code).toBe(0);
    expect((await login(member.username, 'mailed pass 7')).json.code).toBe(0);
  });

  it('writes the code mail in the language of the request before there is a member', async () => {
    await useSmtp('smtp-pass-Secret9');
    const zhTarget = email();
    expect((await testBrowser(t, '10.4.0.1', 'zh-CN').sendCode(zhTarget)).code).toBe(0);
    const zhMail = smtp.mails.find((m) => m.to.includes(zhTarget));
    expect(zhMail?.text).toMatch(/^您的Atrium验证码是 \d{6}，10 分钟内有效。/);
    expect(zhMail?.text.replaceAll('Atrium', '')).not.toMatch(/[A-Za-z]/);
    const enTarget = email();
    expect((await testBrowser(t, '10.4.0.2', 'en').sendCode(enTarget)).code).toBe(0);
    const enMail = smtp.mails.find((m) => m.to.includes(enTarget));
    expect(enMail?.raw).toMatch(/^Subject: Atrium verification code/m);
    expect(enMail?.text).toMatch(/^Your Atrium verification code is \d{6}\./);
    expect(enMail?.text).not.toMatch(/\p{Script=Han}/u);
  });

  it('a failed delivery is reported, kept as failed, and does not start the wait', async () => {
    await useSmtp('not the password 1');
    const browser = testBrowser(t);
    const target = email();
    expect(await browser.sendCode(target)).toEqual({
      code: Code.Failure,
      msg: '验证码发送失败，请稍后重试',
      data: { error: 'account.codeNotSent', params: {} },
    });
    const outbox = await browser.post<OutboxListResponse>(
      '/admin/api/system/outbox/list',
      {},
      await admin(),
    );
    expect(outbox.json.data.records[0]).toMatchObject({ status: 'failed', transport: 'smtp' });
    expect(outbox.json.data.records[0]?.error).toMatch(/^投递出错：.*Invalid username or password/);
    await useSmtp('smtp-pass-Secret9');
    expect((await browser.sendCode(target)).code).toBe(0);
  });

  it('"send test" delivers a test mail or says why it could not', async () => {
    await useSmtp('smtp-pass-Secret9');
    const browser = adminBrowser();
    const ok = await browser.post(
      '/admin/api/system/message/test',
      { target: 'ops@example.com' },
      await admin(),
    );
    expect(ok.json).toEqual({ code: 0, msg: '测试消息已发送', data: null });
    const mail = smtp.mails.find((m) => m.to.includes('ops@example.com'));
    expect(mail?.text.trim()).toBe('这是一条来自Atrium的测试消息：邮件通道工作正常。');
    const english = adminBrowser();
    english.lang = 'en';
    expect(
      (
        await english.post(
          '/admin/api/system/message/test',
          { target: 'ops@example.com' },
          await admin(),
        )
      ).json.msg,
    ).toBe('Test message sent');
    expect(smtp.mails.at(-1)?.raw).toMatch(/^Subject: Atrium test message/m);
    expect(smtp.mails.at(-1)?.text.trim()).toBe(
      'This is a test message from Atrium: the e-mail transport works.',
    );

    await saveMessaging(browser, {
      emailTransport: 'smtp',
      smtp: { host: '127.0.0.1', port: 1, security: 'none', user: '', from: '' },
    });
    const failed = await english.post(
      '/admin/api/system/message/test',
      { target: 'ops@example.com' },
      await admin(),
    );
    expect(failed.json).toMatchObject({
      code: Code.Failure,
      msg: expect.stringMatching(/^Sending failed: Delivery error: .*ECONNREFUSED/),
      data: { error: 'account.sendFailed' },
    });
  });
});

describe('SMS webhook transport', () => {
  let hook: Awaited<ReturnType<typeof startWebhook>>;
  beforeAll(async () => {
    hook = await startWebhook();
  });
  afterAll(async () => {
    await saveMessaging(testBrowser(t), {});
    await hook.close();
  });

  it('POSTs {to, text} with the template filled in; the code registers the phone', async () => {
    await saveMessaging(testBrowser(t), {
      smsTransport: 'webhook',
      sms: { url: hook.url, template: '[Atrium] code {code}, valid 10 min' },
    });
    const browser = testBrowser(t);
    expect((await browser.sendCode('+86 139 0000 1111')).code).toBe(0);
    expect(hook.calls).toHaveLength(1);
    const call = hook.calls[0];
    expect(call?.method).toBe('POST');
    expect(call?.contentType).toBe('application/json');
    expect(call?.body).toEqual({
      to: '+8613900001111',
      text: expect.stringMatching(/^\[Atrium\] code \d{6}, valid 10 min$/),
    });
    const code = /code (\d{6})/.exec(JSON.stringify(call?.body))?.[1] ?? '';

    const registered = await browser.post<LoginResponse>('/api/auth/register', {
      username: 'phone_user',
      password: 'phone pass 9',
      target: '+8613900001111',
      code,
    });
    expect(registered.json.code).toBe(0);
    expect((await login('+8613900001111', 'phone pass 9')).json.data.user.username).toBe(
      'phone_user',
    );
  });

  it('an error answer from the gateway is a failed delivery', async () => {
    hook.state.status = 500;
    const browser = testBrowser(t);
    expect((await browser.sendCode('+8613900002222')).code).toBe(Code.Failure);
    const outbox = await browser.post<OutboxListResponse>(
      '/admin/api/system/outbox/list',
      {},
      await admin(),
    );
    expect(outbox.json.data.records[0]).toMatchObject({
      target: '+86****2222',
      status: 'failed',
      error: '短信 Webhook 返回了 HTTP 500',
    });
    browser.lang = 'en';
    const inEnglish = await browser.post<OutboxListResponse>(
      '/admin/api/system/outbox/list',
      {},
      await admin(),
    );
    expect(inEnglish.json.data.records[0]?.error).toBe('SMS webhook answered HTTP 500');
    hook.state.status = 200;
  });

  it('refuses a template without {code} and a URL that is not http(s)', async () => {
    const browser = testBrowser(t);
    expect(
      (await saveMessaging(browser, { sms: { url: hook.url, template: 'no code here' } })).json.msg,
    ).toBe('短信模板必须包含 {code}');
    expect(
      (await saveMessaging(browser, { sms: { url: 'file:///etc/passwd', template: '{code}' } }))
        .json,
    ).toMatchObject({ data: { error: 'validation.url', field: 'sms.url' } });
    browser.lang = 'en';
    expect(
      (await saveMessaging(browser, { sms: { url: hook.url, template: 'no code here' } })).json,
    ).toMatchObject({
      msg: 'SMS template must contain {code}',
      data: { error: 'account.templateNeedsCode', field: 'sms.template' },
    });
  });
});
