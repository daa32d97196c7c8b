import type { AreaName } from '@atrium/shared/areas';
import { randomBytes } from 'node:crypto';
import { Code, type Envelope, type LoginResponse } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimits } from '../../http/rate-limits';
import {
  passwordHashingLoad,
  PasswordHashing,
  SERVER_BUSY,
  usePasswordCost,
} from '../../security/passwords';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testBrowser } from '../account/accounts.testing';
import { LOGIN_CAPTCHA_SETTING } from '../captcha/index';
import { WRONG_LOGIN } from './auth.service';

/**
 * The sign-in limits under concurrency (DESIGN 9): bursts of parallel requests, on each database
 * and with the counters in memory and in Redis, never get more passwords checked than allowed.
 */

/** Whether a refusal is this catalogue message (its `data.error`). */
const said = (answer: Envelope<unknown>, ref: { key: string }) =>
  (answer.data as { error?: unknown } | null)?.error === ref.key;
const redisUrl = process.env.TEST_REDIS_URL;
const stores = redisUrl ? (['memory', 'redis'] as const) : (['memory'] as const);
const cases = testDbKinds.flatMap((db) => stores.map((store) => ({ db, store })));

const limitsFor = (store: 'memory' | 'redis', prefix: string) =>
  store === 'redis' && redisUrl
    ? new RateLimits({ kind: 'redis', url: redisUrl, prefix })
    : new RateLimits({ kind: 'memory' });

let seq = 0;
const address = () => `10.${40 + (++seq % 200)}.${seq >> 8}.${seq & 255}`;

describe.each(cases)('sign-in limits on $db, counters in $store', ({ db, store }) => {
  let t: TestApp;
  let limits: RateLimits;
  const prefix = `atrium-test-${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    limits = limitsFor(store, prefix);
    t = await createTestApp({ db, deps: { captcha: 'image', limits } });
  });
  afterAll(async () => {
    await t.cleanup();
    await limits.close();
  });

  const signIn = async (
    username: string,
    password: string,
    from: string,
    extra: Record<string, unknown> = {},
    area: AreaName = 'member',
  ) => {
    const res = await t.app.inject({
      method: 'POST',
      url: area === 'admin' ? '/admin/api/auth/login' : '/api/auth/login',
      remoteAddress: from,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username, password, ...extra }),
    });
    expect(res.statusCode).toBe(200);
    return res.json<Envelope<LoginResponse>>();
  };
  const tally = (answers: Envelope<unknown>[]) => ({
    checkedWrong: answers.filter((a) => said(a, WRONG_LOGIN)).length,
    signedIn: answers.filter((a) => a.code === 0).length,
    captcha: answers.filter((a) => a.code === Code.CaptchaWrong).length,
    blocked: answers.filter((a) => a.code === Code.TooManyRequests).length,
  });
  const captchaMode = (mode: 'auto' | 'always' | 'never') =>
    t.app.services.settings.set(LOGIN_CAPTCHA_SETTING, mode, Date.now());

  it('checks at most 3 passwords of a burst of 60, then wants the captcha, and the right password in a later burst does not get in', async () => {
    await captchaMode('auto');
    const { member, password } = await t.createMember();
    const from = address();
    const first = tally(
      await Promise.all(
        Array.from({ length: 60 }, (_, i) => signIn(member.username, `wrong ${i}`, from)),
      ),
    );
    // Past the 30 sign-ins a minute of one address, the rest are not even looked at.
    expect(first).toEqual({ checkedWrong: 3, signedIn: 0, captcha: 27, blocked: 30 });

    // 99 wrong guesses and the right one, in parallel, from another address.
    const second = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        signIn(member.username, i === 50 ? password : `guess ${i}`, address()),
      ),
    );
    const counts = tally(second);
    expect(counts.signedIn).toBe(0);
    expect(counts.checkedWrong).toBe(0);
  });

  it('never shuts out the owner: with attackers hammering the account, the right password and a captcha get in from elsewhere', async () => {
    await captchaMode('auto');
    const { member, password } = await t.createMember();
    // An attacker who solves captchas uses up their own address's 10 failures on the account.
    const attacker = testBrowser(t, address());
    const attempts: Envelope<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      const captcha = await attacker.captcha();
      attempts.push(
        (
          await attacker.post('/api/auth/login', {
            username: member.username,
            password: `guess ${i}`,
            captcha,
          })
        ).json,
      );
    }
    expect(tally(attempts)).toMatchObject({ checkedWrong: 10, blocked: 2 });

    // Others keep guessing without captchas while the owner signs in.
    const hammering = Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(member.username, `more ${i}`, address())),
    );
    const owner = testBrowser(t, address());
    const withoutCaptcha = (
      await owner.post<LoginResponse>('/api/auth/login', { username: member.username, password })
    ).json;
    expect(withoutCaptcha).toMatchObject({
      code: Code.CaptchaWrong,
      data: { captchaRequired: true },
    });
    const captcha = await owner.captcha();
    const signedIn = (
      await owner.post<LoginResponse>('/api/auth/login', {
        username: member.username,
        password,
        captcha,
      })
    ).json;
    expect(signedIn).toMatchObject({ code: 0, data: { user: { id: member.id } } });
    expect(tally(await hammering).signedIn).toBe(0);
  });

  it('with the captcha switched off, checks at most 10 of a burst on one account from one address, and the owner still gets in from another', async () => {
    await captchaMode('never');
    const { admin, password } = await t.createAdmin();
    const from = address();
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        signIn(admin.username, i === 30 ? password : `wrong ${i}`, from, {}, 'admin'),
      ),
    );
    const counts = tally(burst);
    expect(counts.checkedWrong + counts.signedIn).toBeLessThanOrEqual(10);
    expect(counts.blocked).toBeGreaterThanOrEqual(50);
    expect((await signIn(admin.username, password, from, {}, 'admin')).code).toBe(
      Code.TooManyRequests,
    );
    expect((await signIn(admin.username, password, address(), {}, 'admin')).code).toBe(0);
  });

  it('checks at most 30 failures of one address across accounts, in parallel', async () => {
    await captchaMode('never');
    const from = address();
    const burst = await Promise.all(
      Array.from({ length: 80 }, (_, i) => signIn(`nobody_${seq}_${i}`, 'wrong', from)),
    );
    const counts = tally(burst);
    expect(counts.checkedWrong).toBeLessThanOrEqual(30);
    expect(counts.checkedWrong + counts.blocked).toBe(80);
  });

  it('checks at most 5 of 30 parallel wrong current passwords, then refuses the right one too', async () => {
    const { token, user } = await t.loginMember();
    const as = { area: 'member' as const, token };
    const change = (oldPassword: string) =>
      t.post('/api/account/password', { oldPassword, password: 'a new password 9' }, as);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => change(`wrong ${i}`).then((r) => r.json)),
    );
    expect(answers.filter((a) => said(a, { key: 'account.wrongOldPassword' }))).toHaveLength(5);
    expect(answers.filter((a) => a.code === Code.TooManyRequests)).toHaveLength(25);
    expect((await change('member password 1')).json.code).toBe(Code.TooManyRequests);
    expect(user.id).toBeGreaterThan(0);
  });

  it('bounds the password hashes running at once, and answers "busy" when too many wait', async () => {
    await captchaMode('never');
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, passwordHashingLoad().running);
    }, 1);
    // At a site's cost: the test cost's hashes end before the flood's last requests arrive, so
    // nothing would queue (the unknown accounts' decoy hash is made again at this cost).
    usePasswordCost('standard');
    const flood = await Promise.all(
      Array.from({ length: 200 }, (_, i) => signIn(`flood_${seq}_${i}`, 'wrong', address())),
    ).finally(() => usePasswordCost('test'));
    clearInterval(sampler);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(PasswordHashing.concurrency);
    const busy = flood.filter((a) => said(a, SERVER_BUSY));
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((a) => a.code === Code.TooManyRequests)).toBe(true);
    expect(busy.length + flood.filter((a) => said(a, WRONG_LOGIN)).length).toBe(200);
    // A refused "busy" attempt is not a failure: the address can try again at once.
    const { member, password } = await t.createMember();
    expect((await signIn(member.username, password, address())).code).toBe(0);
  });
});

describe.runIf(redisUrl)('sign-in limits shared by two instances over Redis', () => {
  it('checks at most 3 passwords of a burst split across both', async () => {
    const prefix = `atrium-test-${randomBytes(4).toString('hex')}:`;
    const limitsA = limitsFor('redis', prefix);
    const limitsB = limitsFor('redis', prefix);
    const a = await createTestApp({ deps: { captcha: 'image', limits: limitsA } });
    const b = await createTestApp({ deps: { captcha: 'image', limits: limitsB } });
    try {
      // The same account on both: the instances' own databases stand in for one shared one.
      for (const app of [a, b]) await app.createMember({ username: 'shared_account' });
      const from = address();
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (i % 2 ? a : b).app
            .inject({
              method: 'POST',
              url: '/api/auth/login',
              remoteAddress: from,
              headers: { 'content-type': 'application/json' },
              payload: JSON.stringify({ username: 'shared_account', password: `wrong ${i}` }),
            })
            .then((r) => r.json<Envelope<unknown>>()),
        ),
      );
      expect(answers.filter((x) => said(x, WRONG_LOGIN))).toHaveLength(3);
      expect(answers.filter((x) => x.code === Code.CaptchaWrong)).toHaveLength(27);
      expect(answers.filter((x) => x.code === Code.TooManyRequests)).toHaveLength(30);
    } finally {
      await a.cleanup();
      await b.cleanup();
      await limitsA.close();
      await limitsB.close();
    }
  });
});
