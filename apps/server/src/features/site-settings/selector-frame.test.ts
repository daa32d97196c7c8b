import { Code } from '@atrium/shared';
import { defaultLanguage } from '@atrium/shared/messages/catalogue';
import type { SiteSettings } from '@atrium/shared/contract/site-settings';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { captchaNotRequired } from '../auth/index';
import { type TestApp, useTestApp } from '../../testing/test-app';
import { SITE_LANGUAGE_REFRESH_MS } from './index';
import { DEFAULT_SITE_NAME } from '../app/index';
import { selectorOriginKey, siteDefaults, siteKey } from './site-settings.service';

let t: TestApp;
let founder: string;

useTestApp(async (app) => {
  t = app;
  founder = (await app.loginAdmin()).token;
});

const save = (settings: unknown, lang: 'zh-CN' | 'en' = 'zh-CN') =>
  t
    .post<SiteSettings>(
      '/admin/api/setting/save',
      { settings },
      { area: 'admin', token: founder, lang },
    )
    .then((r) => r.json);

const base: SiteSettings = {
  siteName: DEFAULT_SITE_NAME,
  siteLanguage: defaultLanguage,
  ...siteDefaults,
};

/** The policy the admin page is served with, directive by directive. */
async function pagePolicy(app: FastifyInstance): Promise<Map<string, string>> {
  const res = await app.inject({ method: 'GET', url: '/admin/' });
  const header = String(res.headers['content-security-policy']);
  return new Map(
    header.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values.join(' ')] as const;
    }),
  );
}

const instance = () =>
  buildApp(testConfig(t.dataDir), {
    db: t.db,
    bus: t.bus,
    now: t.clock.now,
    captcha: captchaNotRequired,
  });

describe('the external selector in the page policy (issue 28, point 3)', () => {
  it('frames nothing but this site until an address is saved, then its origin only', async () => {
    const before = await pagePolicy(t.app);
    expect(before.get('default-src')).toBe("'self'");
    expect(before.has('frame-src')).toBe(false);

    const saved = await save({
      ...base,
      selectorMode: 'external',
      selectorServer: 'https://media.example.com:8443/selector/',
    });
    expect(saved.code).toBe(0);
    const policy = await pagePolicy(t.app);
    expect(policy.get('frame-src')).toBe("'self' https://media.example.com:8443");
    // Everything else keeps to this site: the origin opens frames, not scripts or requests.
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
    expect(policy.get('connect-src')).toBe("'self'");
    // The API's answers carry the same policy: it is one set of headers.
    const api = await t.post('/api/app/config', {});
    expect(api.res.headers['content-security-policy']).toContain(
      "frame-src 'self' https://media.example.com:8443",
    );

    // A path of this site needs nothing more than 'self'; back to built-in frames nothing else.
    await save({ ...base, selectorMode: 'external', selectorServer: '/selector' });
    expect((await pagePolicy(t.app)).has('frame-src')).toBe(false);
    await save({
      ...base,
      selectorMode: 'external',
      selectorServer: 'http://127.0.0.1:9123/pick',
    });
    expect((await pagePolicy(t.app)).get('frame-src')).toBe("'self' http://127.0.0.1:9123");
    await save(base);
    expect((await pagePolicy(t.app)).has('frame-src')).toBe(false);
  });

  it('reaches another instance within seconds of a save, and a starting one at once', async () => {
    const other = await instance();
    try {
      expect((await pagePolicy(other)).has('frame-src')).toBe(false);
      await save({
        ...base,
        selectorMode: 'external',
        selectorServer: 'https://pick.example.org/s',
      });
      await vi.waitFor(
        async () =>
          expect((await pagePolicy(other)).get('frame-src')).toBe(
            "'self' https://pick.example.org",
          ),
        { timeout: SITE_LANGUAGE_REFRESH_MS * 3, interval: 50 },
      );
      const third = await instance();
      try {
        expect((await pagePolicy(third)).get('frame-src')).toBe("'self' https://pick.example.org");
      } finally {
        await third.close();
      }
    } finally {
      await save(base);
      await other.close();
    }
  });

  it('works the origin out of a form saved before it had its own key', async () => {
    await t.app.services.settings.set(
      siteKey,
      { ...base, selectorMode: 'external', selectorServer: 'https://old.example.net/x' },
      t.clock.now(),
    );
    await t.app.services.settings.delete(selectorOriginKey);
    const started = await instance();
    try {
      expect((await pagePolicy(started)).get('frame-src')).toBe("'self' https://old.example.net");
      expect(await t.app.services.settings.get(selectorOriginKey)).toBe('https://old.example.net');
    } finally {
      await started.close();
      await save(base);
    }
  });

  it('refuses the external mode without an address, naming the field, and keeps what was stored', async () => {
    const kept = {
      ...base,
      selectorMode: 'external',
      selectorServer: 'https://media.example.com/selector',
    };
    expect((await save(kept)).code).toBe(0);
    const refusal = { ...kept, selectorServer: '   ' };
    expect(await save(refusal)).toMatchObject({
      code: Code.Failure,
      msg: '使用外部选择器时必须填写外部选择器地址',
      data: { error: 'admin.selectorServerRequired', field: 'settings.selectorServer' },
    });
    expect(await save(refusal, 'en')).toMatchObject({
      code: Code.Failure,
      msg: 'External selector address is required for the external selector',
      data: { error: 'admin.selectorServerRequired', field: 'settings.selectorServer' },
    });
    const stored = await t.post<SiteSettings>(
      '/admin/api/setting/get',
      {},
      { area: 'admin', token: founder },
    );
    expect(stored.json.data).toMatchObject({
      selectorMode: 'external',
      selectorServer: 'https://media.example.com/selector',
    });
    expect((await pagePolicy(t.app)).get('frame-src')).toBe("'self' https://media.example.com");
    await save(base);
  });
});
