import { Code, type AppConfigResponse, type Envelope } from '@atrium/shared';
import { defaultLanguage } from '@atrium/shared/messages/catalogue';
import type { SiteSettings } from '@atrium/shared/contract/site-settings';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { captchaNotRequired } from '../auth/index';
import { authHeaders, type TestApp, useTestApp } from '../../testing/test-app';
import { SITE_LANGUAGE_REFRESH_MS } from './index';
import { DEFAULT_SITE_NAME } from '../app/index';
import { siteDefaults, siteKey, siteLanguageKey } from './site-settings.service';

let t: TestApp;
let founder: string;

useTestApp(async (app) => {
  t = app;
  founder = (await app.loginAdmin()).token;
});

const call = <T = SiteSettings>(path: 'get' | 'save', body: unknown = {}, token = founder) =>
  t.post<T>(`/admin/api/setting/${path}`, body, { area: 'admin', token }).then((r) => r.json);

const headers = () => authHeaders('admin', founder);

/** A request naming no language (no Accept-Language): refused, since nobody is signed in. */
const anonymous = async (app: FastifyInstance) =>
  (
    await app.inject({
      method: 'POST',
      url: '/admin/api/setting/get',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    })
  ).json<Envelope>();

/** What the API answers before anything is saved. */
const defaults: SiteSettings = {
  siteName: DEFAULT_SITE_NAME,
  siteLanguage: defaultLanguage,
  ...siteDefaults,
};

const full: SiteSettings = {
  siteName: 'Garden Chat',
  siteLanguage: 'zh-CN',
  logo: '/data/image/aa/logo.png',
  favicon: 'http://localhost/data/image/bb/icon.png',
  banners: ['/data/image/cc/one.png', '/data/image/dd/two.png'],
  terms: '/data/file/ee/terms.pdf',
  about: '<h2>About</h2><p><strong>We</strong> grow <a href="https://example.com/">things</a>.</p>',
  metaTags: [
    { name: 'description', value: 'A chat garden' },
    { name: 'og:title', value: 'Garden' },
  ],
  selectorMode: 'external',
  selectorServer: 'https://media.example.com/selector',
  advanced: '{\n  "theme": { "accent": "#4f46e5" }\n}',
};

describe('site settings API', () => {
  it('starts from the defaults', async () => {
    const res = await call('get');
    expect(res).toMatchObject({ code: 0 });
    expect(res.data).toEqual(defaults);
  });

  it('saves every field, gives them back, and shows the public part in app/config', async () => {
    const saved = await call('save', { settings: full });
    expect(saved).toMatchObject({ code: 0, msg: '保存成功', data: full });
    expect((await call('get')).data).toEqual(full);

    const { json } = await t.post<AppConfigResponse>('/api/app/config', {});
    expect(json.data.config).toEqual({
      siteName: 'Garden Chat',
      siteLanguage: 'zh-CN',
      version: expect.any(String),
      logo: full.logo,
      favicon: full.favicon,
      banners: full.banners,
      metaTags: full.metaTags,
      selectorMode: 'external',
      selectorServer: full.selectorServer,
    });
    const admin = await t.post<AppConfigResponse>('/admin/api/app/config', {});
    expect(admin.json.data.config.banners).toEqual(full.banners);
    expect(admin.json.data.config.selectorMode).toBe('external');
    // A form from before the selector settings saves with the built-in picker.
    const { selectorMode: _mode, selectorServer: _server, ...older } = full;
    expect((await call('save', { settings: older })).data).toMatchObject({
      selectorMode: 'builtin',
      selectorServer: '',
    });
    expect(
      await call('save', { settings: { ...full, selectorServer: 'javascript:alert(1)' } }),
    ).toMatchObject({
      msg: '外部选择器地址必须是以“/”开头的路径或 http(s) 地址',
      data: { error: 'admin.siteAddress', field: 'settings.selectorServer' },
    });
  });

  it('sanitises the about text: no script, no event handler, no javascript: link survives', async () => {
    const about =
      '<p>Hi<script>window.__pwned = 1</script></p><img src="/data/image/x.png" onerror="window.__pwned = 1">' +
      '<a href="javascript:alert(1)" onclick="alert(2)">click</a><iframe src="https://evil.example"></iframe>';
    const saved = await call('save', { settings: { ...full, about } });
    expect(saved.code).toBe(0);
    expect(saved.data.about).toBe('<p>Hi</p><img src="/data/image/x.png" /><a>click</a>');
    const stored = (await t.app.services.settings.get(siteKey)) as { about: string };
    expect(stored.about).not.toMatch(/script|onerror|onclick|javascript|iframe|pwned/i);
  });

  it('sanitises again on the way out when a bad value reached the table another way', async () => {
    const current = (await call('get')).data;
    await t.app.services.settings.set(
      siteKey,
      { ...current, about: '<img src=x onerror="alert(1)"><p onmouseover="x()">ok</p>' },
      t.clock.now(),
    );
    expect((await call('get')).data.about).toBe('<img src="x" /><p>ok</p>');
  });

  it('refuses advanced text that is not JSON, naming the field, and keeps the old value', async () => {
    await call('save', { settings: full });
    const res = await call('save', { settings: { ...full, advanced: '{"a": 1,}' } });
    expect(res.code).toBe(Code.Failure);
    expect(res).toMatchObject({
      msg: '高级配置（JSON）不是有效的 JSON',
      data: { error: 'admin.invalidJson', field: 'settings.advanced' },
    });
    expect((await call('get')).data.advanced).toBe(full.advanced);
    expect((await call('save', { settings: { ...full, advanced: '' } })).code).toBe(0);
  });

  it('refuses addresses a page could run, an empty or long name, and too many banners', async () => {
    const refused = async (settings: unknown, error: string, field: string) => {
      const res = await call('save', { settings });
      expect(res).toMatchObject({ code: Code.Failure, data: { error, field } });
      return res.msg;
    };
    expect(
      await refused(
        { ...full, terms: 'javascript:alert(1)' },
        'admin.siteAddress',
        'settings.terms',
      ),
    ).toBe('服务条款文档必须是以“/”开头的路径或 http(s) 地址');
    await refused({ ...full, logo: '//evil.example/x.png' }, 'admin.siteAddress', 'settings.logo');
    await refused(
      { ...full, favicon: 'data:image/png;base64,AA' },
      'admin.siteAddress',
      'settings.favicon',
    );
    expect(
      await refused({ ...full, siteName: '  ' }, 'validation.required', 'settings.siteName'),
    ).toBe('请填写站点名称');
    await refused({ ...full, siteName: 'x'.repeat(51) }, 'validation.tooLong', 'settings.siteName');
    await refused(
      { ...full, banners: Array(11).fill('/data/a.png') },
      'validation.tooMany',
      'settings.banners',
    );
    await refused({ ...full, banners: [''] }, 'validation.required', 'settings.banners.0');
    expect(
      await refused(
        { ...full, metaTags: [{ name: '"><script>', value: 'x' }] },
        'admin.metaNameRule',
        'settings.metaTags.0.name',
      ),
    ).toBe('名称只能包含字母、数字和 : . _ -，并以字母开头');
    await refused({ ...full, siteLanguage: 'fr' }, 'validation.oneOf', 'settings.siteLanguage');
    await refused({ ...full, extra: 1 }, 'validation.unknownField', 'settings.extra');
  });

  it('refuses in the language the request asks for', async () => {
    const settings = { ...full, logo: '//evil.example/x.png' };
    const asked = async (lang: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/admin/api/setting/save',
          headers: { 'content-type': 'application/json', 'accept-language': lang, ...headers() },
          payload: JSON.stringify({ settings }),
        })
      ).json<Envelope>();
    expect((await asked('zh-CN')).msg).toBe('标志必须是以“/”开头的路径或 http(s) 地址');
    expect(await asked('en-GB,en;q=0.8')).toMatchObject({
      msg: 'Logo must be a path starting with "/" or an http(s) address',
      data: { error: 'admin.siteAddress', field: 'settings.logo' },
    });
  });

  it('needs the system/setting rule', async () => {
    const { token } = await t.loginAdmin({ username: 'no_settings', rules: ['data/*'] });
    expect((await call('get', {}, token)).code).toBe(Code.NoPermission);
    expect((await call('save', { settings: full }, token)).code).toBe(Code.NoPermission);
    const allowed = await t.loginAdmin({ username: 'settings_only', rules: ['system/setting'] });
    expect((await call('get', {}, allowed.token)).code).toBe(0);
    const anonymous = await t.post('/admin/api/setting/get', {});
    expect(anonymous.json.code).toBe(Code.NotLoggedIn);
  });

  it('keeps the valid fields of a stored value that is partly broken', async () => {
    await t.app.services.settings.set(
      siteKey,
      { logo: '/data/image/ok.png', banners: 'not a list', metaTags: [{ name: 1 }] },
      t.clock.now(),
    );
    const res = await call('get');
    expect(res.data).toMatchObject({ logo: '/data/image/ok.png', banners: [], metaTags: [] });
  });
});

describe('the site default language', () => {
  it('answers requests that name no language in it, and app/config tells the web', async () => {
    await call('save', { settings: full });
    expect(await anonymous(t.app)).toMatchObject({ code: Code.NotLoggedIn, msg: '请先登录' });

    const saved = await call('save', { settings: { ...full, siteLanguage: 'en' } });
    expect(saved).toMatchObject({ code: 0, msg: 'Save Success', data: { siteLanguage: 'en' } });
    expect(await t.app.services.settings.get(siteLanguageKey)).toBe('en');
    expect(await anonymous(t.app)).toMatchObject({
      code: Code.NotLoggedIn,
      msg: 'not logined',
      data: { error: 'http.notLoggedIn' },
    });
    const config = await t.post<AppConfigResponse>('/api/app/config', {});
    expect(config.json.data.config).toMatchObject({ siteLanguage: 'en' });
    expect((await call('get')).data.siteLanguage).toBe('en');

    // A request that names its language is still answered in it.
    const chinese = await t.app.inject({
      method: 'POST',
      url: '/admin/api/setting/get',
      headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN' },
      payload: '{}',
    });
    expect(chinese.json<Envelope>().msg).toBe('请先登录');

    expect((await call('save', { settings: full })).msg).toBe('保存成功');
    expect((await anonymous(t.app)).msg).toBe('请先登录');
  });

  it("reaches another instance within seconds of a save, and a starting instance's first answer", async () => {
    const instance = () =>
      buildApp(testConfig(t.dataDir), {
        db: t.db,
        bus: t.bus,
        now: t.clock.now,
        captcha: captchaNotRequired,
      });
    const other = await instance();
    try {
      expect((await anonymous(other)).msg).toBe('请先登录');
      await call('save', { settings: { ...full, siteLanguage: 'en' } });
      await vi.waitFor(async () => expect((await anonymous(other)).msg).toBe('not logined'), {
        timeout: SITE_LANGUAGE_REFRESH_MS * 3,
        interval: 50,
      });
      const third = await instance();
      try {
        expect((await anonymous(third)).msg).toBe('not logined');
      } finally {
        await third.close();
      }
    } finally {
      await call('save', { settings: full });
      await other.close();
    }
  });
});
