import { Code, type AppConfigResponse } from '@atrium/shared';
import type { SiteSettings } from '@atrium/shared/contract/site-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { siteKey } from './site-settings.service';

let t: TestApp;
let founder: string;

beforeAll(async () => {
  t = await createTestApp();
  founder = (await t.loginAdmin()).token;
});
afterAll(async () => {
  await t.cleanup();
});

const call = <T = SiteSettings>(path: 'get' | 'save', body: unknown = {}, token = founder) =>
  t.post<T>(`/admin/api/setting/${path}`, body, { area: 'admin', token }).then((r) => r.json);

const full: SiteSettings = {
  siteName: 'Garden Chat',
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
    expect(res.data).toEqual({
      siteName: 'Atrium',
      logo: '',
      favicon: '',
      banners: [],
      terms: '',
      about: '',
      metaTags: [],
      selectorMode: 'builtin',
      selectorServer: '',
      advanced: '',
    });
  });

  it('saves every field, gives them back, and shows the public part in app/config', async () => {
    const saved = await call('save', { settings: full });
    expect(saved).toMatchObject({ code: 0, msg: 'Save Success', data: full });
    expect((await call('get')).data).toEqual(full);

    const { json } = await t.post<AppConfigResponse>('/api/app/config', {});
    expect(json.data.config).toEqual({
      siteName: 'Garden Chat',
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
      (await call('save', { settings: { ...full, selectorServer: 'javascript:alert(1)' } })).msg,
    ).toMatch(/selectorServer/);
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
    expect(res.msg).toMatch(/^settings\.advanced: is not valid JSON \(.+\)$/);
    expect((await call('get')).data.advanced).toBe(full.advanced);
    expect((await call('save', { settings: { ...full, advanced: '' } })).code).toBe(0);
  });

  it('refuses addresses a page could run, an empty or long name, and too many banners', async () => {
    const refused = async (settings: unknown, msg: RegExp) => {
      const res = await call('save', { settings });
      expect(res.code).toBe(Code.Failure);
      expect(res.msg).toMatch(msg);
    };
    await refused({ ...full, terms: 'javascript:alert(1)' }, /^settings\.terms: must be a path/);
    await refused({ ...full, logo: '//evil.example/x.png' }, /^settings\.logo: must be a path/);
    await refused({ ...full, favicon: 'data:image/png;base64,AA' }, /^settings\.favicon:/);
    await refused({ ...full, siteName: '  ' }, /^settings\.siteName: is required/);
    await refused({ ...full, siteName: 'x'.repeat(51) }, /^settings\.siteName:/);
    await refused({ ...full, banners: Array(11).fill('/data/a.png') }, /^settings\.banners:/);
    await refused({ ...full, banners: [''] }, /^settings\.banners\.0: is empty/);
    await refused(
      { ...full, metaTags: [{ name: '"><script>', value: 'x' }] },
      /^settings\.metaTags\.0\.name:/,
    );
    await refused({ ...full, extra: 1 }, /^settings\.extra: unknown field/);
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
