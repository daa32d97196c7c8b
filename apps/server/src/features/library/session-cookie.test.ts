import type { AreaName } from '@atrium/shared/areas';
import { Code, TokenKey, type Envelope } from '@atrium/shared';
import type { CategoryResponse } from '@atrium/shared/contract/files';
import { describe, expect, it } from 'vitest';
import { fileManagerCookies } from '../../http/session-cookie';
import { testDbKinds } from '../../testing/db';
import { authHeaders, type TestApp, useTestApp } from '../../testing/test-app';
import { managerUrl, useUploadConfig } from './library.testing';

const site = 'http://atrium.test';
const MIN = 60_000;

/** Headers a browser on the site's own page sends (Fetch Metadata and Origin). */
const sameOrigin = { 'sec-fetch-site': 'same-origin', origin: site };

describe.each(testDbKinds)('the file manager session cookie (%s)', (kind) => {
  let t: TestApp;
  useTestApp(
    async (made) => {
      t = made;
      await useUploadConfig(t);
    },
    { db: kind },
  );

  /** Signs in through Atrium's own sign-in, as the web app does: the token and the cookie set. */
  const signIn = async (area: AreaName) => {
    const { username } =
      area === 'admin'
        ? (await t.createAdmin({ founder: true, password: 'pass-word-1' })).admin
        : (await t.createMember({ password: 'pass-word-1' })).member;
    const res = await t.app.inject({
      method: 'POST',
      url: area === 'admin' ? '/admin/api/auth/login' : '/api/auth/login',
      headers: { host: 'atrium.test' },
      payload: { username, password: 'pass-word-1' },
    });
    const token = res.json<Envelope<{ token: string }>>().data.token;
    const cookie = res.cookies.find((c) => c.name === fileManagerCookies[area].name);
    return { token, cookie };
  };

  /** A file-manager call carrying only the cookie (as ModStart's jQuery and WebUploader do). */
  const byCookie = async <T = unknown>(
    area: AreaName,
    cookie: string,
    body: Record<string, unknown>,
    headers: Record<string, string> = sameOrigin,
  ) => {
    const res = await t.app.inject({
      method: 'POST',
      url: managerUrl(area, 'file'),
      headers: { host: 'atrium.test', ...headers },
      cookies: { [fileManagerCookies[area].name]: cookie },
      payload: body,
    });
    return res.json<Envelope<T>>();
  };

  describe.each<AreaName>(['member', 'admin'])('%s area', (area) => {
    it('is set by the sign-in: HttpOnly, SameSite=Strict, scoped to the file manager', async () => {
      const { token, cookie } = await signIn(area);
      expect(cookie).toMatchObject({
        value: token,
        path: fileManagerCookies[area].path,
        httpOnly: true,
        sameSite: 'Strict',
      });
      expect(cookie?.path).toMatch(/\/file_manager$/);
      expect(cookie?.secure).toBeFalsy();
    });

    it('signs in same-origin calls: Fetch Metadata, else Origin, else Referer', async () => {
      const { token } = await signIn(area);
      const proofs: Record<string, string>[] = [
        { 'sec-fetch-site': 'same-origin' },
        { origin: site },
        { referer: `${site}/admin/some/page?x=1` },
      ];
      for (const proof of proofs) {
        const answer = await byCookie<CategoryResponse>(area, token, { action: 'category' }, proof);
        expect(answer.code, JSON.stringify(proof)).toBe(Code.Success);
      }
      // The proof stands for the XSRF echo that such pages cannot send.
      const made = await byCookie<{ id: number }>(area, token, {
        action: 'categoryEdit',
        title: 'By cookie',
      });
      expect(made.code, made.msg).toBe(Code.Success);
    });

    it('refuses cookie-only posts from other sites and from browsers proving nothing', async () => {
      const { token } = await signIn(area);
      const before = await byCookie<CategoryResponse>(area, token, { action: 'category' });
      const refused: Record<string, string>[] = [
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
        { 'sec-fetch-site': 'same-site', origin: site },
        // Fetch Metadata wins over an Origin a non-browser could forge alongside it.
        { 'sec-fetch-site': 'none', origin: site },
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { referer: 'https://evil.example/page' },
        { origin: 'https://evil.example', referer: `${site}/page` },
        // An old browser sending none of the three.
        {},
      ];
      for (const headers of refused) {
        for (const body of [
          { action: 'categoryEdit', title: 'Cross-site' },
          { action: 'config' },
        ]) {
          const answer = await byCookie(area, token, body, headers);
          expect(answer.code, JSON.stringify(headers)).toBe(Code.NotLoggedIn);
        }
      }
      const after = await byCookie<CategoryResponse>(area, token, { action: 'category' });
      expect(after.data).toEqual(before.data);
    });

    it('counts on the file-manager routes only, and is cleared by signing out', async () => {
      const { token } = await signIn(area);
      const appConfig = await t.app.inject({
        method: 'POST',
        url: area === 'admin' ? '/admin/api/app/config' : '/api/app/config',
        headers: { host: 'atrium.test', ...sameOrigin },
        cookies: { [fileManagerCookies[area].name]: token },
        payload: {},
      });
      const config = appConfig.json<Envelope<{ user?: { id: number } } | null>>();
      expect(config.data?.user?.id ?? 0).toBe(0);

      const out = await t.app.inject({
        method: 'POST',
        url: area === 'admin' ? '/admin/api/auth/logout' : '/api/auth/logout',
        headers: { ...authHeaders(area, token), host: 'atrium.test' },
        payload: {},
      });
      expect(out.json<Envelope>().code).toBe(Code.Success);
      const cleared = out.cookies.find((c) => c.name === fileManagerCookies[area].name);
      expect(cleared).toMatchObject({ value: '', path: fileManagerCookies[area].path });
      expect((await byCookie(area, token, { action: 'config' })).code).toBe(Code.NotLoggedIn);
    });

    it('carries the fresh token after the page rotates it, so an open page keeps uploading', async () => {
      const { token } = await signIn(area);
      t.clock.advance(16 * MIN);
      // The page's own refresh rotates the token and the cookie with it.
      const refresh = await t.app.inject({
        method: 'POST',
        url: area === 'admin' ? '/admin/api/app/config' : '/api/app/config',
        headers: { ...authHeaders(area, token), host: 'atrium.test' },
        payload: {},
      });
      const fresh = String(refresh.headers[TokenKey[area]]);
      expect(fresh).not.toBe(token);
      const renewed = refresh.cookies.find((c) => c.name === fileManagerCookies[area].name);
      expect(renewed).toMatchObject({ value: fresh, httpOnly: true, sameSite: 'Strict' });

      t.clock.advance(2 * MIN);
      expect((await byCookie(area, token, { action: 'config' })).code).toBe(Code.NotLoggedIn);
      const init = await byCookie(area, fresh, {
        action: 'init',
        name: 'later.txt',
        size: 5,
        md5: '5d41402abc4b2a76b9719d911017c592',
      });
      expect(init.code, init.msg).toBe(Code.Success);
    });
  });
});
