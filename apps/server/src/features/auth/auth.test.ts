import type { AreaName } from '@atrium/shared/areas';
import { Code, TokenKey, XsrfCookie, XsrfHeader, type LoginResponse } from '@atrium/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../http/tokens';
import { usePasswordCost } from '../../security/passwords';
import {
  authHeaders,
  createTestApp,
  TEST_XSRF,
  type TestApp,
  withMovableSystemClock,
} from '../../testing/test-app';
import type { CaptchaVerifier, LoginAttempt } from './captcha';

const MIN = 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

const whoAmI = async (token: string, area: AreaName = 'admin') => {
  const url = area === 'admin' ? '/admin/api/app/config' : '/api/app/config';
  const { res, json } = await t.post<{ user: { id: number } }>(url, {}, { area, token });
  return {
    res,
    id: json.data.user.id,
    header: res.headers[area === 'admin' ? TokenKey.admin : TokenKey.member],
  };
};

const login = (
  area: AreaName,
  username: string,
  password: string,
  extra: Record<string, unknown> = {},
) =>
  t.post<LoginResponse>(area === 'admin' ? '/admin/api/auth/login' : '/api/auth/login', {
    username,
    password,
    ...extra,
  });

describe('login', () => {
  it('answers {user, token} and puts the token in the response header', async () => {
    const { admin, password } = await t.createAdmin({ username: 'login_ok' });
    const { res, json } = await login('admin', 'login_ok', password);
    expect(json).toMatchObject({
      code: 0,
      data: { user: { id: admin.id, username: 'login_ok', nickname: 'login_ok', avatar: '' } },
    });
    expect(json.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers[TokenKey.admin]).toBe(json.data.token);
    expect((await whoAmI(json.data.token)).id).toBe(admin.id);
  });

  it('stores passwords as argon2id hashes', async () => {
    const { admin, password } = await t.createAdmin();
    expect(admin.passwordHash).toMatch(
      /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/,
    );
    expect(admin.passwordHash).not.toContain(password);
  });

  it('hashes at the full argon2id cost by default, and at the test cost only in test apps', async () => {
    // Test apps ask for ATRIUM_PASSWORD_COST=test (testConfig); a site's config never does.
    const { admin: tested } = await t.createAdmin();
    expect(tested.passwordHash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    const site = await createTestApp({ env: { ATRIUM_PASSWORD_COST: '' } });
    try {
      const { admin, password } = await site.createAdmin({ username: 'full_cost' });
      // The library's default, as OWASP recommends: 19 MiB, 2 passes, 1 lane.
      expect(admin.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const { json } = await site.post<LoginResponse>('/admin/api/auth/login', {
        username: 'full_cost',
        password,
      });
      expect(json.code).toBe(0);
    } finally {
      await site.cleanup();
      usePasswordCost('test');
    }
  });

  it('gives the same answer for an unknown account, a wrong password and a disabled account', async () => {
    const { admin, password } = await t.createAdmin({ username: 'login_disabled' });
    await t.createAdmin({ username: 'login_wrong' });
    await t.db.updateTable('admins').set({ disabled: 1 }).where('id', '=', admin.id).execute();
    const answers = [
      (await login('admin', 'no_such_admin', 'whatever1')).json,
      (await login('admin', 'login_wrong', 'not the password')).json,
      (await login('admin', 'login_disabled', password)).json,
    ];
    for (const answer of answers) {
      expect(answer).toEqual({
        code: Code.Failure,
        msg: '用户名或密码错误',
        data: { error: 'account.wrongLogin', params: {} },
      });
    }
  });

  it('says a wrong password in the language of the request', async () => {
    const { member } = await t.createMember({ username: 'login_languages' });
    const ask = async (headers: Record<string, string>) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '10.9.0.1',
          headers: { 'content-type': 'application/json', ...headers },
          payload: JSON.stringify({ username: member.username, password: 'not it 123' }),
        })
      ).json<{ code: number; msg: string; data: unknown }>();
    const wrong = { code: Code.Failure, data: { error: 'account.wrongLogin' } };
    expect(await ask({ 'accept-language': 'zh-CN,zh;q=0.9' })).toMatchObject({
      ...wrong,
      msg: '用户名或密码错误',
    });
    expect(await ask({ 'accept-language': 'en-US,en;q=0.9' })).toMatchObject({
      ...wrong,
      msg: 'Wrong username or password',
    });
    // The web names its UI language, which wins over the browser's.
    expect(await ask({ 'x-atrium-lang': 'en', 'accept-language': 'zh-CN' })).toMatchObject({
      ...wrong,
      msg: 'Wrong username or password',
    });
  });

  it('lets members sign in with username, e-mail or phone', async () => {
    const { member, password } = await t.createMember({
      username: 'member_multi',
      email: 'Multi@Example.com',
      phone: '13800138000',
    });
    for (const name of ['member_multi', 'multi@example.com', 'MULTI@example.com', '13800138000']) {
      const { json } = await login('member', name, password);
      expect(json.code, name).toBe(0);
      expect((await whoAmI(json.data.token, 'member')).id).toBe(member.id);
    }
  });

  it('keeps the areas apart: admin accounts cannot sign in as members and the reverse', async () => {
    const { password } = await t.createAdmin({ username: 'area_admin' });
    const member = await t.createMember({ username: 'area_member' });
    expect((await login('member', 'area_admin', password)).json.code).toBe(Code.Failure);
    expect((await login('admin', 'area_member', member.password)).json.code).toBe(Code.Failure);
  });
});

describe('tokens', () => {
  it('are stored only as their SHA-256 hash', async () => {
    const { token } = await t.loginAdmin();
    const rows = await t.db.selectFrom('sessions').selectAll().execute();
    expect(rows.some((r) => r.tokenHash === hashToken(token))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('are read from the request header only, never a cookie, the query string or the body', async () => {
    const { token } = await t.loginMember();
    const viaCookie = await t.app.inject({
      method: 'POST',
      url: '/api/app/config',
      headers: {
        'content-type': 'application/json',
        cookie: `${TokenKey.member}=${token}; ${XsrfCookie}=${TEST_XSRF}`,
        [XsrfHeader]: TEST_XSRF,
      },
      payload: '{}',
    });
    expect(viaCookie.json()).toMatchObject({ code: 0, data: { user: { id: 0 } } });
    const viaQuery = await t.app.inject({
      method: 'POST',
      url: `/api/app/config?${TokenKey.member}=${token}&token=${token}`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(viaQuery.json()).toMatchObject({ code: 0, data: { user: { id: 0 } } });
    const viaBody = await t.post('/api/auth/logout', { [TokenKey.member]: token, token });
    expect(viaBody.json.code).toBe(Code.NotLoggedIn);
    expect((await whoAmI(token, 'member')).id).toBeGreaterThan(0);
  });

  it('come back in the same-named header on every authenticated answer', async () => {
    const { token } = await t.loginAdmin();
    for (let i = 0; i < 3; i++) expect((await whoAmI(token)).header).toBe(token);
    const anonymous = await t.post('/admin/api/app/config', {});
    expect(anonymous.res.headers[TokenKey.admin]).toBeUndefined();
  });

  it('rotate after 15 minutes; the old one keeps working for 60 s without handing out a token', async () => {
    const { token: first } = await t.loginAdmin();
    t.clock.advance(14 * MIN);
    expect((await whoAmI(first)).header).toBe(first);
    t.clock.advance(2 * MIN);
    const rotated = await whoAmI(first);
    const second = String(rotated.header);
    expect(rotated.id).toBeGreaterThan(0);
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);

    t.clock.advance(30_000);
    const inGrace = await whoAmI(first);
    expect(inGrace.id).toBe(rotated.id);
    expect(inGrace.header).toBeUndefined();
    expect((await whoAmI(second)).header).toBe(second);

    t.clock.advance(31_000);
    expect((await whoAmI(first)).id).toBe(0);
    expect((await whoAmI(second)).id).toBe(rotated.id);
  });

  it('rotate once when parallel requests carry the same old token', async () => {
    const { token } = await t.loginAdmin();
    t.clock.advance(16 * MIN);
    const answers = await Promise.all(Array.from({ length: 5 }, () => whoAmI(token)));
    expect(answers.every((a) => a.id > 0)).toBe(true);
    const issued = answers.map((a) => a.header).filter((h): h is string => typeof h === 'string');
    expect(issued).toHaveLength(1);
    expect((await whoAmI(issued[0] ?? '')).id).toBe(answers[0]?.id);
  });

  it('expire after an hour without use', async () => {
    const { token } = await t.loginAdmin();
    t.clock.advance(61 * MIN);
    expect((await whoAmI(token)).id).toBe(0);
  });

  it('slide: a session used every half hour stays alive for hours', async () => {
    let { token } = await t.loginAdmin();
    for (let i = 0; i < 8; i++) {
      t.clock.advance(30 * MIN);
      const answer = await whoAmI(token);
      expect(answer.id, `after ${(i + 1) * 30} minutes`).toBeGreaterThan(0);
      token = String(answer.header ?? token);
    }
  });

  it('end 30 days after sign-in even when used all along', async () => {
    const { token } = await t.loginAdmin();
    const thirtyDays = 30 * 24 * 60 * MIN;
    await t.db
      .updateTable('sessions')
      .set({ createdAt: t.clock.now() - thirtyDays + MIN })
      .where('tokenHash', '=', hashToken(token))
      .execute();
    expect((await whoAmI(token)).id).toBeGreaterThan(0);
    t.clock.advance(MIN);
    expect((await whoAmI(token)).id).toBe(0);
  });

  it('stop working once the account is disabled', async () => {
    const { token, user } = await t.loginAdmin();
    await t.db.updateTable('admins').set({ disabled: 1 }).where('id', '=', user.id).execute();
    expect((await whoAmI(token)).id).toBe(0);
  });
});

describe('logout', () => {
  it('revokes the admin session', async () => {
    const { token } = await t.loginAdmin();
    const { res, json } = await t.post('/admin/api/auth/logout', {}, { area: 'admin', token });
    expect(json).toEqual({ code: 0, msg: '', data: null });
    expect(res.headers[TokenKey.admin]).toBeUndefined();
    expect((await whoAmI(token)).id).toBe(0);
    const row = await t.db
      .selectFrom('sessions')
      .select('revokedAt')
      .where('tokenHash', '=', hashToken(token))
      .executeTakeFirst();
    expect(row?.revokedAt).toBe(t.clock.now());
  });

  it('revokes the member session and only that one', async () => {
    const { member, password } = await t.createMember();
    const a = (await login('member', member.username, password)).json.data.token;
    const b = (await login('member', member.username, password)).json.data.token;
    expect((await t.post('/api/auth/logout', {}, { area: 'member', token: a })).json.code).toBe(0);
    expect((await whoAmI(a, 'member')).id).toBe(0);
    expect((await whoAmI(b, 'member')).id).toBe(member.id);
  });

  it('needs a session', async () => {
    expect((await t.post('/api/auth/logout', {})).json.code).toBe(Code.NotLoggedIn);
    expect((await t.post('/admin/api/auth/logout', {})).json.code).toBe(Code.NotLoggedIn);
  });
});

describe('XSRF', () => {
  const logoutWith = (token: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/admin/api/auth/logout',
      headers: { 'content-type': 'application/json', [TokenKey.admin]: token, ...headers },
      payload: '{}',
    });

  it('refuses a POST with a token but no or a wrong X-XSRF-TOKEN, and nothing happens', async () => {
    const { token } = await t.loginAdmin();
    const attempts: LightMyRequestResponse[] = [
      await logoutWith(token, {}),
      await logoutWith(token, { cookie: `${XsrfCookie}=${TEST_XSRF}` }),
      await logoutWith(token, { [XsrfHeader]: TEST_XSRF }),
      await logoutWith(token, {
        cookie: `${XsrfCookie}=${TEST_XSRF}`,
        [XsrfHeader]: `${TEST_XSRF}x`,
      }),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        code: Code.Failure,
        msg: '页面已过期（XSRF 校验失败），请刷新页面后重试',
        data: { error: 'http.xsrfMismatch', params: {} },
      });
    }
    expect((await whoAmI(token)).id).toBeGreaterThan(0);
    const accepted = await logoutWith(token, authHeaders('admin', token));
    expect(accepted.json()).toMatchObject({ code: 0 });
  });

  it('sets a readable XSRF-TOKEN cookie when the browser has none, and keeps an existing one', async () => {
    const fresh = await t.post('/api/app/config', {});
    const cookie = fresh.res.cookies.find((c) => c.name === XsrfCookie);
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/app/config',
      headers: { 'content-type': 'application/json', cookie: `${XsrfCookie}=${cookie?.value}` },
      payload: '{}',
    });
    expect(again.cookies.find((c) => c.name === XsrfCookie)).toBeUndefined();
  });
});

describe('failed-login limits', () => {
  withMovableSystemClock();
  // Its own app, so failures counted by other tests from the same address don't add up here.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });
  const login = (area: AreaName, username: string, password: string) =>
    t.post<LoginResponse>(area === 'admin' ? '/admin/api/auth/login' : '/api/auth/login', {
      username,
      password,
    });

  const fromAddress = (username: string, password: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username, password }),
    });

  it('blocks one address on an account after 10 failures for 15 minutes; other addresses still get in', async () => {
    const { password } = await t.createAdmin({ username: 'limited_account' });
    for (let i = 0; i < 10; i++) {
      expect((await login('admin', 'limited_account', `wrong-${i}`)).json.msg).toBe(
        '用户名或密码错误',
      );
    }
    const locked = await login('admin', 'limited_account', password);
    expect(locked.json).toMatchObject({
      code: Code.TooManyRequests,
      msg: expect.stringContaining('15'),
      // The window's seconds left, rounded: a loaded machine may take over a second to get here.
      data: { wait: expect.closeTo(900, -1), error: 'limits.attempts' },
    });
    const owner = await t.app.inject({
      method: 'POST',
      url: '/admin/api/auth/login',
      remoteAddress: '10.7.0.1',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'limited_account', password }),
    });
    expect(owner.json()).toMatchObject({ code: 0 });
    t.clock.advance(10 * MIN);
    expect((await login('admin', 'Limited_Account', password)).json).toMatchObject({
      msg: expect.stringContaining('5'),
      data: { error: 'limits.attempts' },
    });
    t.clock.advance(5 * MIN);
    expect((await login('admin', 'limited_account', password)).json.code).toBe(0);
  });

  it('forgets the failures of an address on an account once it signs in', async () => {
    const { password } = await t.createMember({ username: 'resets_after_success' });
    for (let i = 0; i < 9; i++) await fromAddress('resets_after_success', 'wrong', '10.7.0.2');
    expect((await fromAddress('resets_after_success', password, '10.7.0.2')).json().code).toBe(0);
    // Without the reset this would be failure 10, and the next attempt number 11 is blocked.
    await fromAddress('resets_after_success', 'wrong', '10.7.0.2');
    expect((await fromAddress('resets_after_success', password, '10.7.0.2')).json().code).toBe(0);
  });

  it('limits one client address to 30 failures across accounts', async () => {
    const { password } = await t.createMember({ username: 'ip_victim' });
    for (let i = 0; i < 30; i++) {
      await fromAddress(`guess_${i}`, 'wrong', '10.0.0.9');
      // Slower than the 30 sign-ins a minute an address may try at all.
      t.clock.advance(2_100);
    }
    expect((await fromAddress('ip_victim', password, '10.0.0.9')).json()).toMatchObject({
      code: Code.TooManyRequests,
      msg: expect.stringContaining('14'),
      data: { error: 'limits.attempts' },
    });
    expect((await fromAddress('ip_victim', password, '10.0.0.10')).json()).toMatchObject({
      code: 0,
    });
  });

  it('counts the addresses of one IPv6 /64 as one', async () => {
    const { password } = await t.createMember({ username: 'ipv6_neighbour' });
    for (let i = 0; i < 30; i++) {
      const from = `2001:db8:7:7:${(i + 1).toString(16)}::1`;
      expect((await fromAddress('ipv6_neighbour', password, from)).json().code).toBe(0);
    }
    expect(
      (await fromAddress('ipv6_neighbour', password, '2001:db8:7:7:ffff::9')).json(),
    ).toMatchObject({
      code: Code.TooManyRequests,
    });
    expect((await fromAddress('ipv6_neighbour', password, '2001:db8:7:8::1')).json().code).toBe(0);
  });

  it('counts every sign-in of an address, successful ones too: 30 a minute', async () => {
    const { password } = await t.createMember({ username: 'signs_in_often' });
    for (let i = 0; i < 30; i++) {
      expect((await fromAddress('signs_in_often', password, '10.7.0.3')).json().code).toBe(0);
    }
    expect((await fromAddress('signs_in_often', password, '10.7.0.3')).json()).toMatchObject({
      code: Code.TooManyRequests,
      data: { error: 'limits.signInPerAddress' },
    });
    expect((await fromAddress('signs_in_often', password, '10.7.0.4')).json().code).toBe(0);
    t.clock.advance(MIN);
    expect((await fromAddress('signs_in_often', password, '10.7.0.3')).json().code).toBe(0);
  });
});

describe('captcha hook', () => {
  it('asks the verifier about every attempt and refuses with 1002 until it is satisfied', async () => {
    const seen: LoginAttempt[] = [];
    const captcha: CaptchaVerifier = {
      checkLogin: async (attempt) => {
        seen.push(attempt);
        if (attempt.failures < 1) return 'ok';
        if (attempt.answer === undefined) return 'required';
        return attempt.answer === 'ABCD' ? 'ok' : 'wrong';
      },
    };
    const c = await createTestApp({ deps: { captcha } });
    try {
      const { admin, password } = await c.createAdmin();
      const attempt = (extra: Record<string, unknown>, pw = password) =>
        c.post('/admin/api/auth/login', { username: admin.username, password: pw, ...extra });
      expect((await attempt({}, 'wrong')).json.msg).toBe('用户名或密码错误');
      expect((await attempt({})).json).toMatchObject({
        code: Code.CaptchaWrong,
        msg: '请输入图形验证码',
        data: { captchaRequired: true, error: 'account.captchaRequired', field: 'captcha' },
      });
      expect((await attempt({ captcha: 'zzzz' })).json).toMatchObject({ code: Code.CaptchaWrong });
      expect((await attempt({ captcha: 'ABCD' })).json.code).toBe(0);
      expect(seen.map((s) => [s.area, s.username, s.failures, s.answer])).toEqual([
        ['admin', admin.username, 0, undefined],
        ['admin', admin.username, 1, undefined],
        ['admin', admin.username, 1, 'zzzz'],
        ['admin', admin.username, 1, 'ABCD'],
      ]);
    } finally {
      await c.cleanup();
    }
  });
});
