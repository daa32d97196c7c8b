import { Code, TokenKey, type LoginResponse } from '@atrium/shared';
import { AccountLimits, type Profile } from '@atrium/shared/contract/accounts';
import { message, render } from '@atrium/shared/messages/catalogue';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp, withMovableSystemClock } from '../../testing/test-app';
import { FileClient } from '../library/library.testing';
import { codeFromOutbox, lastSentTo, testBrowser, type TestBrowser } from './accounts.testing';

const tinyPng = (color: string) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();

let t: TestApp;

let n = 0;
const email = () => `acct${++n}@example.com`;

const whoAmI = async (token: string) => {
  const { json } = await t.post<{ user: { id: number } }>(
    '/api/app/config',
    {},
    { area: 'member', token },
  );
  return json.data.user.id;
};

const login = (username: string, password: string) =>
  t.post<LoginResponse>('/api/auth/login', { username, password });

const lastSent = (target: string) => lastSentTo(t, target);

const memberLang = async (username: string) =>
  (
    await t.db
      .selectFrom('members')
      .select('lang')
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).lang;

const han = /\p{Script=Han}/u;

async function register(
  browser: TestBrowser,
  fields: { username: string; password?: string; target?: string; nickname?: string },
) {
  const target = fields.target ?? email();
  await browser.sendCode(target);
  const code = await codeFromOutbox(t, target);
  return browser.post<LoginResponse>('/api/auth/register', {
    username: fields.username,
    password: fields.password ?? 'first pass 1',
    target,
    code,
    ...(fields.nickname ? { nickname: fields.nickname } : {}),
  });
}

// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set.
describe.each(testDbKinds)('on %s', (kind) => {
  beforeAll(async () => {
    t = await createTestApp({ db: kind });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  describe('register', () => {
    withMovableSystemClock();
    it('creates the member with the verified e-mail, signs them in, and they can log in by e-mail', async () => {
      const browser = testBrowser(t);
      const target = 'New.Member@Example.com';
      const { res, json } = await register(browser, {
        username: 'newbie',
        target,
        nickname: 'Newbie',
      });
      expect(json).toMatchObject({
        code: 0,
        data: { user: { username: 'newbie', nickname: 'Newbie', avatar: '' } },
      });
      expect(res.headers[TokenKey.member]).toBe(json.data.token);
      expect(await whoAmI(json.data.token)).toBe(json.data.user.id);
      const profile = await t.post<Profile>(
        '/api/account/profile',
        {},
        { area: 'member', token: json.data.token },
      );
      expect(profile.json.data).toMatchObject({ email: 'new.member@example.com', phone: null });
      expect((await login('new.member@example.com', 'first pass 1')).json.code).toBe(0);
    });

    it('needs the code sent to that target; the captcha was answered once, to get the code', async () => {
      const browser = testBrowser(t);
      const target = email();
      await browser.sendCode(target);
      const code = await codeFromOutbox(t, target);
      const body = { username: 'one_captcha', password: 'first pass 1', target, code };
      const otherTarget = await browser.post('/api/auth/register', { ...body, target: email() });
      expect(otherTarget.json).toMatchObject({
        code: Code.Failure,
        msg: '验证码错误或已过期，请重新获取',
        data: { error: 'account.codeExpired', field: 'code' },
      });
      // A captcha is no part of the sign-up any more: one sent along is refused as unknown.
      const withCaptcha = await browser.post('/api/auth/register', { ...body, captcha: 'ABCD' });
      expect(withCaptcha.json.code).toBe(Code.Failure);
      // A failed attempt (a wrong code) leaves the right code usable, with no new captcha.
      const wrong = await browser.post('/api/auth/register', {
        ...body,
        code: code === '000000' ? '000001' : '000000',
      });
      expect(wrong.json).toMatchObject({ data: { error: 'account.codeWrong', field: 'code' } });
      expect((await browser.post('/api/auth/register', body)).json.code).toBe(0);
    });

    it('refuses weak passwords and usernames that could pass for an e-mail or phone', async () => {
      const browser = testBrowser(t);
      const base = { target: email(), code: '123456' };
      const usernameRule = '用户名须为 3-32 个字母、数字或下划线，并以字母开头';
      const attempts: [Record<string, string>, string, string][] = [
        [{ username: 'weakling', password: 'short1' }, '密码至少需要 8 个字符', 'password'],
        [{ username: 'weakling', password: 'lettersonly' }, '密码须同时包含字母和数字', 'password'],
        [{ username: 'weakling', password: '1234567890' }, '密码须同时包含字母和数字', 'password'],
        [{ username: '13800138000', password: 'good pass 1' }, usernameRule, 'username'],
        [{ username: 'a@b.com', password: 'good pass 1' }, usernameRule, 'username'],
      ];
      for (const [fields, msg, field] of attempts) {
        expect(
          (await browser.post('/api/auth/register', { ...base, ...fields })).json,
        ).toMatchObject({ code: Code.Failure, msg, data: { field } });
      }
      browser.lang = 'en';
      expect(
        (
          await browser.post('/api/auth/register', {
            ...base,
            username: 'weakling',
            password: 'short1',
          })
        ).json,
      ).toMatchObject({
        msg: 'Password needs at least 8 characters',
        data: { error: 'account.passwordTooShort', params: { field: { key: 'field.password' } } },
      });
    });

    it('a taken username is refused when the code is asked for, before a code goes out', async () => {
      expect((await register(testBrowser(t), { username: 'taken_name' })).json.code).toBe(0);
      const browser = testBrowser(t, '127.0.0.9');
      const target = email();
      const ask = async (username: string | undefined, captcha?: string) =>
        (
          await browser.post<{ wait: number }>('/api/verify/send', {
            target,
            captcha: captcha ?? (await browser.captcha()),
            ...(username === undefined ? {} : { username }),
          })
        ).json;
      // Only after a right captcha: asking about names costs what signing up always cost.
      expect((await ask('taken_name', 'ZZZZ')).code).toBe(Code.CaptchaWrong);
      expect(await ask('taken_name')).toMatchObject({
        code: Code.Failure,
        msg: '用户名“taken_name”已被占用',
        data: {
          error: 'account.usernameTaken',
          field: 'username',
          params: { username: 'taken_name' },
        },
      });
      browser.lang = 'en';
      expect(await ask('taken_name')).toMatchObject({
        msg: 'Username taken_name is taken',
        data: { error: 'account.usernameTaken', field: 'username' },
      });
      expect(await lastSent(target).catch(() => undefined)).toBeUndefined();
      // Another name is asked at once: the refusal did not count as a send to the address.
      expect(await ask('free_name')).toMatchObject({ code: 0, data: { wait: 60 } });
      expect(await codeFromOutbox(t, target)).toMatch(/^\d{6}$/);
      expect(await ask('not a name!')).toMatchObject({
        code: Code.Failure,
        data: { field: 'username' },
      });
    });

    it('a name taken after the code was sent is said to the code holder, and the code is kept', async () => {
      const browser = testBrowser(t);
      const target = email();
      await browser.sendCode(target);
      const code = await codeFromOutbox(t, target);
      expect((await register(testBrowser(t), { username: 'late_taken' })).json.code).toBe(0);
      const attempt = async (username: string, withCode = code) =>
        (
          await browser.post('/api/auth/register', {
            username,
            password: 'first pass 1',
            target,
            code: withCode,
          })
        ).json;
      // A wrong code says nothing about the name.
      expect(await attempt('late_taken', code === '000000' ? '000001' : '000000')).toMatchObject({
        data: { error: 'account.codeWrong', field: 'code' },
      });
      expect(await attempt('late_taken')).toMatchObject({
        code: Code.Failure,
        msg: '用户名“late_taken”已被占用',
        data: { error: 'account.usernameTaken', field: 'username' },
      });
      expect(await attempt('late_fresh')).toMatchObject({ code: 0 });
    });

    it('a right code asks about names at most as often as it may be tried', async () => {
      expect((await register(testBrowser(t), { username: 'tries_taken' })).json.code).toBe(0);
      const browser = testBrowser(t);
      const target = email();
      await browser.sendCode(target);
      const code = await codeFromOutbox(t, target);
      const errors: unknown[] = [];
      for (let i = 0; i < AccountLimits.codeMaxWrongTries + 1; i++) {
        const { json } = await browser.post('/api/auth/register', {
          username: 'tries_taken',
          password: 'first pass 1',
          target,
          code,
        });
        errors.push((json.data as { error?: unknown } | null)?.error);
      }
      expect(errors).toEqual([
        ...Array<string>(AccountLimits.codeMaxWrongTries).fill('account.usernameTaken'),
        'account.codeTooManyTries',
      ]);
    });

    it('says an address is registered only to whoever holds its code', async () => {
      const known = email();
      expect(
        (await register(testBrowser(t), { username: 'owns_address', target: known })).json.code,
      ).toBe(0);
      const stranger = testBrowser(t);
      const unknown = email();
      const withCode = async (target: string, code: string) =>
        (
          await stranger.post('/api/auth/register', {
            username: 'stranger_name',
            password: 'first pass 1',
            target,
            code,
          })
        ).json;
      // A wrong code answers the same whether the address is registered or not.
      await stranger.sendCode(unknown);
      const forUnknown = await withCode(unknown, '000000');
      t.clock.advance(61_000);
      await testBrowser(t).sendCode(known);
      const forKnown = await withCode(known, '000000');
      expect(forKnown).toMatchObject({ data: { error: 'account.codeWrong', field: 'code' } });
      expect(forKnown.msg).toMatch(/^验证码错误，还可尝试 \d 次$/);
      expect(forKnown.msg.replace(/\d/, 'n')).toBe(forUnknown.msg.replace(/\d/, 'n'));
      // The owner of the address, holding its code, learns it is taken.
      expect(await withCode(known, await codeFromOutbox(t, known))).toMatchObject({
        msg: '该邮箱地址已被注册',
        data: { error: 'account.emailRegistered', field: 'target' },
      });
    });
  });

  describe("the member's language", () => {
    withMovableSystemClock();
    it('writes the registration code in the language of the request, and keeps it on the member', async () => {
      const zh = testBrowser(t, '127.0.0.1', 'zh-CN');
      const zhTarget = email();
      expect((await zh.sendCode(zhTarget)).msg).toBe('验证码已发送');
      const zhMail = await lastSent(zhTarget);
      expect(zhMail.subject).toBe('Atrium验证码');
      expect(zhMail.body).toMatch(/^您的Atrium验证码是 \d{6}，10 分钟内有效。/);
      expect(zhMail.body.replaceAll('Atrium', '')).not.toMatch(/[A-Za-z]/);
      expect((await register(zh, { username: 'speaks_zh', target: zhTarget })).json.code).toBe(0);
      expect(await memberLang('speaks_zh')).toBe('zh-CN');

      const en = testBrowser(t, '127.0.0.2', 'en');
      const enTarget = email();
      expect((await en.sendCode(enTarget)).msg).toBe('Verification code sent');
      const enMail = await lastSent(enTarget);
      expect(enMail.subject).toBe('Atrium verification code');
      expect(enMail.body).toMatch(/^Your Atrium verification code is \d{6}\. It expires/);
      expect(enMail.body).not.toMatch(han);
      expect((await register(en, { username: 'speaks_en', target: enTarget })).json.code).toBe(0);
      expect(await memberLang('speaks_en')).toBe('en');
    });

    it("sends a member's codes in the language they last signed in with", async () => {
      const target = email();
      const { member, password } = await t.createMember({ email: target });
      expect(await memberLang(member.username)).toBeNull();
      const en = testBrowser(t, '127.0.0.3', 'en');
      expect((await en.post('/api/auth/login', { username: target, password })).json.code).toBe(0);
      expect(await memberLang(member.username)).toBe('en');
      // A reset asked for in Chinese still reaches them in their own language.
      const zh = testBrowser(t, '127.0.0.4', 'zh-CN');
      expect((await zh.sendCode(target)).code).toBe(0);
      expect((await lastSent(target)).body).toMatch(/^Your Atrium verification code is/);

      const reset = await zh.post('/api/auth/password_reset', {
        target,
        code: await codeFromOutbox(t, target),
        password: 'new pass 12',
      });
      expect(reset.json).toEqual({ code: 0, msg: '密码已修改，请重新登录', data: null });
      t.clock.advance(61_000);
      expect(
        (await zh.post('/api/auth/login', { username: target, password: 'new pass 12' })).json.code,
      ).toBe(0);
      expect(await memberLang(member.username)).toBe('zh-CN');
      expect((await zh.sendCode(target)).code).toBe(0);
      expect((await lastSent(target)).body).toMatch(/^您的Atrium验证码是/);
    });

    it('says a wrong code in the language of the request', async () => {
      const browser = testBrowser(t, '127.0.0.5', 'en');
      const target = email();
      await browser.sendCode(target);
      const answer = async () =>
        (
          await browser.post('/api/auth/password_reset', {
            target,
            code: '000000',
            password: 'new pass 12',
          })
        ).json;
      expect(await answer()).toMatchObject({
        code: Code.Failure,
        msg: 'Verification code is wrong, 4 tries left',
        data: { error: 'account.codeWrong', field: 'code', params: { left: 4 } },
      });
      browser.lang = 'zh-CN';
      expect(await answer()).toMatchObject({
        msg: '验证码错误，还可尝试 3 次',
        data: { error: 'account.codeWrong', field: 'code' },
      });
      await answer();
      browser.lang = 'en';
      expect(await answer()).toMatchObject({
        msg: 'Verification code is wrong, 1 try left',
        data: { error: 'account.codeWrongLastTry', field: 'code' },
      });
      expect(await answer()).toMatchObject({
        msg: 'Verification code: too many wrong tries, request a new code',
        data: { error: 'account.codeTooManyTries', field: 'code' },
      });
    });

    it('keeps the password rule of the texts in step with AccountLimits', () => {
      expect(render('en', message('account.passwordTooShort', { field: 'x' }))).toContain(
        ` ${AccountLimits.passwordMinLength} `,
      );
      expect(render('en', message('account.passwordTooLong', { field: 'x' }))).toContain(
        ` ${AccountLimits.passwordMaxLength} `,
      );
      expect(render('zh-CN', message('account.codeFormat', { field: 'x' }))).toContain(
        ` ${AccountLimits.codeLength} `,
      );
    });
  });

  describe('profile', () => {
    it('shows and saves nickname and avatar', async () => {
      const { token, user } = await t.loginMember();
      const as = { area: 'member' as const, token };
      const image = await new FileClient(t, as, 'image').uploadAndSave({
        name: 'me.png',
        data: await tinyPng('#203040'),
      });
      const avatar = image.path;
      const saved = await t.post<Profile>(
        '/api/account/profile/save',
        { nickname: '  Neo  ', avatar },
        as,
      );
      expect(saved.json).toMatchObject({
        code: 0,
        msg: '资料已保存',
        data: { nickname: 'Neo', avatar },
      });
      const profile = await t.post<Profile>('/api/account/profile', {}, as);
      expect(profile.json.data).toMatchObject({
        id: user.id,
        username: user.username,
        nickname: 'Neo',
        avatar,
      });
      const config = await t.post<{ user: { nickname: string; avatar: string } }>(
        '/api/app/config',
        {},
        as,
      );
      expect(config.json.data.user).toMatchObject({ nickname: 'Neo', avatar });
    });

    it('takes only library image paths as avatar, and needs a nickname', async () => {
      const { token } = await t.loginMember();
      const as = { area: 'member' as const, token };
      for (const avatar of [
        'https://evil.example/x.png',
        'javascript:alert(1)',
        `/data/file/ab/${'ab'.repeat(32)}.pdf`,
      ]) {
        expect(
          (await t.post('/api/account/profile/save', { nickname: 'x', avatar }, as)).json.msg,
        ).toBe('头像：请从图片库中选择图片');
      }
      expect(
        (await t.post('/api/account/profile/save', { nickname: ' ', avatar: '' }, as)).json,
      ).toMatchObject({ msg: '请填写昵称', data: { field: 'nickname' } });
    });

    it("takes no other member's image as avatar, and keeps one's own", async () => {
      const owner = await t.loginMember();
      const theirs = await new FileClient(
        t,
        { area: 'member', token: owner.token },
        'image',
      ).uploadAndSave({ name: 'theirs.png', data: await tinyPng('#aa3300') });
      const { token } = await t.loginMember();
      const as = { area: 'member' as const, token };
      const taken = await t.post(
        '/api/account/profile/save',
        { nickname: 'x', avatar: theirs.path },
        as,
      );
      expect(taken.json).toMatchObject({
        code: Code.Failure,
        msg: '头像：请从自己的图片库中选择图片',
        data: { error: 'account.notOwnAvatar', field: 'avatar' },
      });
      expect((await t.post<Profile>('/api/account/profile', {}, as)).json.data.avatar).toBe('');
      const mine = await new FileClient(t, as, 'image').uploadAndSave({
        name: 'mine.png',
        data: await tinyPng('#aa3300'),
      });
      expect(
        (await t.post('/api/account/profile/save', { nickname: 'x', avatar: mine.path }, as)).json
          .code,
      ).toBe(0);
    });

    it('needs a signed-in member', async () => {
      expect((await t.post('/api/account/profile', {})).json.code).toBe(Code.NotLoggedIn);
      const { token } = await t.loginAdmin();
      expect((await t.post('/api/account/profile', {}, { area: 'member', token })).json.code).toBe(
        Code.NotLoggedIn,
      );
    });
  });

  describe('password change', () => {
    it('needs the current password, keeps this session and signs out the others', async () => {
      const { member, password } = await t.createMember();
      const current = (await login(member.username, password)).json.data.token;
      const other = (await login(member.username, password)).json.data.token;
      const as = { area: 'member' as const, token: current };
      expect(
        (
          await t.post(
            '/api/account/password',
            { oldPassword: 'nope', password: 'changed pass 4' },
            as,
          )
        ).json,
      ).toMatchObject({
        msg: '当前密码错误',
        data: { error: 'account.wrongOldPassword', field: 'oldPassword' },
      });
      expect(await whoAmI(other)).toBe(member.id);

      const { json } = await t.post(
        '/api/account/password',
        { oldPassword: password, password: 'changed pass 4' },
        as,
      );
      expect(json).toEqual({
        code: 0,
        msg: '密码已修改，其他设备已退出登录',
        data: null,
      });
      expect(await whoAmI(current)).toBe(member.id);
      expect(await whoAmI(other)).toBe(0);
      expect((await login(member.username, password)).json.code).toBe(Code.Failure);
      expect((await login(member.username, 'changed pass 4')).json.code).toBe(0);
    });

    it('refuses the same password and weak ones', async () => {
      const { member, password } = await t.createMember({ password: 'member pass 1' });
      const token = (await login(member.username, password)).json.data.token;
      const as = { area: 'member' as const, token };
      expect(
        (await t.post('/api/account/password', { oldPassword: password, password }, as)).json.msg,
      ).toBe('新密码不能与当前密码相同');
      expect(
        (await t.post('/api/account/password', { oldPassword: password, password: 'abc' }, as)).json
          .msg,
      ).toBe('密码至少需要 8 个字符');
    });

    it('locks for 15 minutes after 5 wrong current passwords', async () => {
      const { member, password } = await t.createMember();
      const token = (await login(member.username, password)).json.data.token;
      const as = { area: 'member' as const, token };
      for (let i = 0; i < 5; i++) {
        await t.post(
          '/api/account/password',
          { oldPassword: `wrong ${i}`, password: 'changed pass 4' },
          as,
        );
      }
      expect(
        (
          await t.post(
            '/api/account/password',
            { oldPassword: password, password: 'changed pass 4' },
            as,
          )
        ).json,
      ).toMatchObject({
        code: Code.TooManyRequests,
        data: { wait: expect.closeTo(900, -1), error: 'limits.wrongPasswords' },
      });
    });
  });
});
