import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  adminMenu,
  Code,
  filterMenu,
  type AdminAppConfigResponse,
  type AppConfigResponse,
} from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import serverPackage from '../../../package.json' with { type: 'json' };
import { createTestApp, type TestApp } from '../../testing/test-app';
import { WebVersion } from './web-version';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    setup: (app) => {
      app.lazyHashes.register('Sample', async () => 'sample-hash-1');
    },
  });
});
afterAll(async () => {
  await t.cleanup();
});

describe('POST /api/app/config', () => {
  it('answers anonymous callers with the site config and user {id: 0}', async () => {
    const { json } = await t.post<AppConfigResponse>('/api/app/config', {});
    expect(json).toEqual({
      code: 0,
      msg: '',
      data: {
        config: {
          siteName: 'Atrium',
          siteLanguage: 'zh-CN',
          version: serverPackage.version,
          logo: '',
          favicon: '',
          banners: [],
          metaTags: [],
          selectorMode: 'builtin',
          selectorServer: '',
        },
        user: { id: 0 },
        hashPC: 'dev',
        hashLazyValue: {
          Rooms: expect.stringMatching(/^[0-9a-f]{16}$/),
          Upload: expect.stringMatching(/^[0-9a-f]{16}$/),
          Sample: 'sample-hash-1',
        },
      },
    });
  });

  it('names the signed-in member', async () => {
    const { token, user } = await t.loginMember({ username: 'config_member' });
    const { json } = await t.post<AppConfigResponse>(
      '/api/app/config',
      {},
      { area: 'member', token },
    );
    expect(json.data.user).toEqual({
      id: user.id,
      username: 'config_member',
      nickname: 'config_member',
      avatar: '',
    });
  });

  it('uses the siteName setting', async () => {
    await t.app.services.settings.set('siteName', 'Garden Chat', t.clock.now());
    await t.app.services.keptSettings.changed('siteName');
    try {
      const { json } = await t.post<AppConfigResponse>('/api/app/config', {});
      expect(json.data.config.siteName).toBe('Garden Chat');
    } finally {
      await t.app.services.settings.delete('siteName');
      await t.app.services.keptSettings.changed('siteName');
    }
  });
});

describe('POST /admin/api/app/config', () => {
  it('works anonymously with no rules and no menu', async () => {
    const { json } = await t.post<AdminAppConfigResponse>('/admin/api/app/config', {});
    expect(json.code).toBe(Code.Success);
    expect(json.data).toMatchObject({ user: { id: 0 }, rules: [], menus: [], hashPC: 'dev' });
  });

  it('gives the founder every rule and the whole menu', async () => {
    const { token, user } = await t.loginAdmin();
    const { json } = await t.post<AdminAppConfigResponse>(
      '/admin/api/app/config',
      {},
      { area: 'admin', token },
    );
    expect(json.data.user.id).toBe(user.id);
    expect(json.data.rules).toEqual(['*']);
    expect(json.data.menus).toEqual(filterMenu(adminMenu, ['*']));
    expect(json.data.hashLazyValue).toEqual({
      Rooms: expect.stringMatching(/^[0-9a-f]{16}$/),
      Upload: expect.stringMatching(/^[0-9a-f]{16}$/),
      Sample: 'sample-hash-1',
    });
  });

  it('gives a limited admin the union of its roles and only the menu those rules allow', async () => {
    const { admin, password } = await t.createAdmin({ rules: ['system/role'] });
    const second = await t.app.services.admins.create({
      username: 'other_role_holder',
      password: 'password 123',
      rules: ['data/file_manager/*'],
    });
    const role = await t.db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', second.username)
      .executeTakeFirstOrThrow();
    await t.db.insertInto('adminRoles').values({ adminId: admin.id, roleId: role.id }).execute();

    const { token } = await t.loginAdmin({ username: admin.username, password });
    const { json } = await t.post<AdminAppConfigResponse>(
      '/admin/api/app/config',
      {},
      { area: 'admin', token },
    );
    expect([...json.data.rules].sort()).toEqual(['data/file_manager/*', 'system/role']);
    const urls = (items: AdminAppConfigResponse['menus']): string[] =>
      items.flatMap((m) => [m.url, ...urls(m.children)]);
    expect(urls(json.data.menus)).toEqual(['data', 'data/file_manager', 'system', 'system/role']);
  });
});

describe('hashPC', () => {
  it('hashes the built entry pages and follows a new deploy', async () => {
    const webDir = join(t.dataDir, 'web-version');
    let now = 1_000_000;
    const version = new WebVersion(webDir, () => now);
    expect(version.current()).toBe('dev');

    mkdirSync(join(webDir, 'admin'), { recursive: true });
    writeFileSync(join(webDir, 'index.html'), '<script src="/assets/member-aaaa.js"></script>');
    writeFileSync(
      join(webDir, 'admin', 'index.html'),
      '<script src="/assets/admin-aaaa.js"></script>',
    );
    expect(version.current()).toBe('dev');
    now += 1000;
    const first = version.current();
    expect(first).toMatch(/^[0-9a-f]{16}$/);

    writeFileSync(
      join(webDir, 'admin', 'index.html'),
      '<script src="/assets/admin-bbbb.js"></script>',
    );
    utimesSync(join(webDir, 'admin', 'index.html'), new Date(), new Date(Date.now() + 5000));
    now += 500;
    expect(version.current()).toBe(first);
    now += 500;
    const second = version.current();
    expect(second).toMatch(/^[0-9a-f]{16}$/);
    expect(second).not.toBe(first);
  });

  it('is what app/config answers when a build exists', async () => {
    const webDir = join(t.dataDir, 'web-built');
    mkdirSync(join(webDir, 'admin'), { recursive: true });
    writeFileSync(join(webDir, 'index.html'), 'member');
    writeFileSync(join(webDir, 'admin', 'index.html'), 'admin');
    const built = await createTestApp({ env: { ATRIUM_WEB_DIR: webDir } });
    try {
      const member = await built.post<AppConfigResponse>('/api/app/config', {});
      const admin = await built.post<AppConfigResponse>('/admin/api/app/config', {});
      expect(member.json.data.hashPC).toBe(new WebVersion(webDir).current());
      expect(admin.json.data.hashPC).toBe(member.json.data.hashPC);
    } finally {
      await built.cleanup();
    }
  });
});
