import { Code, TokenKey, type LoginResponse } from '@atrium/shared';
import type { Profile } from '@atrium/shared/contract/accounts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp, withMovableSystemClock } from '../../testing/test-app';
import { FileClient } from '../files/files.testing';
import { codeFromOutbox, testBrowser, type TestBrowser } from './accounts.testing';

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
    captcha: await browser.captcha(),
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

    it('needs the code sent to that target, and a captcha', async () => {
      const browser = testBrowser(t);
      const target = email();
      await browser.sendCode(target);
      const code = await codeFromOutbox(t, target);
      const body = { username: 'no_captcha', password: 'first pass 1', target, code };
      expect(
        (await browser.post('/api/auth/register', { ...body, captcha: 'ZZZZ' })).json.code,
      ).toBe(Code.CaptchaWrong);
      const otherTarget = await browser.post('/api/auth/register', {
        ...body,
        target: email(),
        captcha: await browser.captcha(),
      });
      expect(otherTarget.json).toMatchObject({
        code: Code.Failure,
        msg: 'code: wrong or expired, request a new code',
      });
      expect(
        (await browser.post('/api/auth/register', { ...body, captcha: await browser.captcha() }))
          .json.code,
      ).toBe(0);
    });

    it('refuses weak passwords and usernames that could pass for an e-mail or phone', async () => {
      const browser = testBrowser(t);
      const base = { target: email(), code: '123456', captcha: 'ABCD' };
      const attempts: [Record<string, string>, string][] = [
        [{ username: 'weakling', password: 'short1' }, 'password: use at least 8 characters'],
        [
          { username: 'weakling', password: 'lettersonly' },
          'password: use both letters and digits',
        ],
        [{ username: 'weakling', password: '1234567890' }, 'password: use both letters and digits'],
        [
          { username: '13800138000', password: 'good pass 1' },
          'username: 3-32 letters, digits or _, starting with a letter',
        ],
        [
          { username: 'a@b.com', password: 'good pass 1' },
          'username: 3-32 letters, digits or _, starting with a letter',
        ],
      ];
      for (const [fields, msg] of attempts) {
        expect((await browser.post('/api/auth/register', { ...base, ...fields })).json.msg).toBe(
          msg,
        );
      }
    });

    it('a taken username is refused without using up the code', async () => {
      const first = await register(testBrowser(t), { username: 'taken_name' });
      expect(first.json.code).toBe(0);
      const browser = testBrowser(t);
      const target = email();
      await browser.sendCode(target);
      const code = await codeFromOutbox(t, target);
      const attempt = async (username: string) =>
        (
          await browser.post('/api/auth/register', {
            username,
            password: 'first pass 1',
            target,
            code,
            captcha: await browser.captcha(),
          })
        ).json;
      expect(await attempt('taken_name')).toMatchObject({ msg: 'username: taken_name is taken' });
      expect(await attempt('fresh_name')).toMatchObject({ code: 0 });
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
            captcha: await stranger.captcha(),
          })
        ).json;
      // A wrong code answers the same whether the address is registered or not.
      await stranger.sendCode(unknown);
      const forUnknown = await withCode(unknown, '000000');
      t.clock.advance(61_000);
      await testBrowser(t).sendCode(known);
      const forKnown = await withCode(known, '000000');
      expect(forKnown.msg).toMatch(/^code: /);
      expect(forKnown.msg.replace(/\d+ tries/, 'n tries')).toBe(
        forUnknown.msg.replace(/\d+ tries/, 'n tries'),
      );
      // The owner of the address, holding its code, learns it is taken.
      expect(await withCode(known, await codeFromOutbox(t, known))).toMatchObject({
        msg: 'target: this e-mail address is already registered',
      });
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
        msg: 'Profile saved',
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
        ).toBe('avatar: choose an image from the library');
      }
      expect(
        (await t.post('/api/account/profile/save', { nickname: ' ', avatar: '' }, as)).json.msg,
      ).toBe('nickname: is required');
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
        msg: 'avatar: choose an image from your own library',
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
        ).json.msg,
      ).toBe('oldPassword: wrong password');
      expect(await whoAmI(other)).toBe(member.id);

      const { json } = await t.post(
        '/api/account/password',
        { oldPassword: password, password: 'changed pass 4' },
        as,
      );
      expect(json).toEqual({
        code: 0,
        msg: 'Password changed; other devices have been signed out',
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
      ).toBe('password: choose a password different from the current one');
      expect(
        (await t.post('/api/account/password', { oldPassword: password, password: 'abc' }, as)).json
          .msg,
      ).toBe('password: use at least 8 characters');
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
      ).toEqual({
        code: Code.TooManyRequests,
        msg: 'Too many wrong passwords, try again in 15 minutes',
        data: { wait: 900 },
      });
    });
  });
});
