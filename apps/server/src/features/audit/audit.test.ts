import { Code } from '@atrium/shared';
import { fileManagerCalls, libraries } from '@atrium/shared/contract/files';
import type { AuditEntry, AuditOptions } from '@atrium/shared/contract/audit';
import type { Paged } from '@atrium/shared/contract/paging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { FileClient } from '../library/library.testing';
import { adminTable } from '@atrium/shared/contract/table';
import { auditAction, auditDetail, auditTarget, isReadAction } from './audit.hook';
import { auditActionText, auditPhrase } from './audit.phrases';

const chinese = /\p{Script=Han}/u;

describe.each(testDbKinds)('audit log on %s', (kind) => {
  let t: TestApp;
  let founder: string;
  let founderId: number;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    const login = await t.loginAdmin();
    founder = login.token;
    founderId = login.user.id;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const call = <T = unknown>(token: string, path: string, body: Record<string, unknown> = {}) =>
    t.post<T>(`/admin/api/${path}`, body, { area: 'admin', token }).then((r) => r.json);

  const entries = async (filter: Record<string, unknown> = {}) =>
    (await call<Paged<AuditEntry>>(founder, 'audit/list', { pageSize: 100, ...filter })).data;

  /** `audit/list` or `audit/options` asked in `lang` (Accept-Language). */
  const readIn = async <T>(lang: string, path: string, body: Record<string, unknown> = {}) =>
    (await t.post<T>(`/admin/api/${path}`, body, { area: 'admin', token: founder, lang })).json
      .data;

  describe('the audit log', () => {
    it('records an admin write with who, what, target, when and IP, secrets hidden', async () => {
      const created = await call<{ id: number }>(founder, 'admins/create', {
        username: 'audited_one',
        password: 'never shown password',
      });
      const { records } = await entries({ action: 'admins/create' });
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        adminId: founderId,
        adminUsername: expect.any(String),
        action: 'admins/create',
        actionText: '添加管理员',
        target: `#${created.data.id} audited_one`,
        ip: '127.0.0.1',
        createdAt: t.clock.now(),
      });
      expect(records[0]?.detail).toContain('"password":"***"');
      expect(records[0]?.detail).not.toContain('never shown');
    });

    it('leaves out reads, refused calls and failed writes', async () => {
      const before = (await entries()).total;
      await call(founder, 'admins/list');
      await call(founder, 'members/get', { id: 1 });
      await call(founder, 'dashboard/stats');
      await call(founder, 'admins/create', { username: 'x', password: 'short' });
      await call(founder, 'roles/delete', { id: 424242 });
      const weak = await t.loginAdmin({ rules: ['dashboard'] });
      expect((await call(weak.token, 'roles/create', { name: 'Nope', rules: [] })).code).toBe(
        Code.NoPermission,
      );
      expect((await entries()).total).toBe(before);
    });

    it('covers routes of other features too, such as the admin file library', async () => {
      const files = new FileClient(t, { area: 'admin', token: founder }, 'image');
      expect((await files.call({ action: 'list' })).code).toBe(0);
      const res = await files.call<{ id: number }>({
        action: 'categoryEdit',
        id: 0,
        pid: 0,
        title: 'Logos',
      });
      expect(res.code).toBe(0);
      const { records } = await entries({ action: 'data/file_manager/image:categoryEdit' });
      expect(records).toHaveLength(1);
      expect(records[0]?.target).toContain('Logos');
      expect(records[0]?.actionText).toBe('保存分类 · 图片库');
      expect((await entries({ action: 'data/file_manager/image:list' })).total).toBe(0);
    });

    it('shows each action as a phrase in the language of the request, never as a route', async () => {
      await call(founder, 'roles/create', { name: 'Phrased role', rules: [] });
      const zh = await readIn<Paged<AuditEntry>>('zh-CN', 'audit/list', { pageSize: 100 });
      const en = await readIn<Paged<AuditEntry>>('en', 'audit/list', { pageSize: 100 });
      expect(zh.records.length).toBeGreaterThan(1);
      for (const entry of zh.records) {
        expect(entry.actionText, entry.action).toMatch(chinese);
        expect(entry.actionText).not.toContain('/');
      }
      for (const entry of en.records) {
        expect(entry.actionText, entry.action).not.toMatch(chinese);
        expect(entry.actionText).not.toContain('/');
      }
      const role = (records: AuditEntry[]) =>
        records.find((e) => e.action === 'roles/create')?.actionText;
      expect([role(zh.records), role(en.records)]).toEqual(['添加角色', 'Add role']);
      const category = (records: AuditEntry[]) =>
        records.find((e) => e.action === 'data/file_manager/image:categoryEdit')?.actionText;
      expect([category(zh.records), category(en.records)]).toEqual([
        '保存分类 · 图片库',
        'Save category · Image Gallery',
      ]);

      const zhOptions = await readIn<AuditOptions>('zh-CN', 'audit/options');
      const enOptions = await readIn<AuditOptions>('en', 'audit/options');
      expect(zhOptions.actions).toContainEqual({ action: 'roles/create', text: '添加角色' });
      expect(enOptions.actions).toContainEqual({ action: 'roles/create', text: 'Add role' });
    });

    it('has a phrase in both languages for every audited admin route', async () => {
      const audited: string[] = [];
      for (const record of t.app.routeRegistry) {
        if (record.area !== 'admin') continue;
        if (record.path.includes(':category')) {
          for (const library of libraries) {
            const url = record.path.replace(':category', library);
            for (const verb of Object.keys(fileManagerCalls)) {
              // Chunks are multipart: the hook records the `save` that files them.
              if (verb !== 'chunk') audited.push(auditAction(url, { action: verb }));
            }
          }
        } else {
          audited.push(auditAction(record.path, {}));
        }
      }
      const writes = audited.filter((action) => !isReadAction(action));
      expect(writes).toContain('aigc/chat_room/save');
      expect(writes).toContain('data/file_manager/audio:purge');
      const missing = writes.filter((action) => auditPhrase(action) === undefined);
      expect(missing, 'audited admin routes without a phrase in admin-audit.ts').toEqual([]);
      for (const action of writes) {
        expect(auditActionText('zh-CN', action), action).toMatch(chinese);
        expect(auditActionText('en', action), action).not.toMatch(chinese);
      }
    });

    it('filters by admin, action and time range, newest first, paged', async () => {
      const { admin, password } = await t.createAdmin({
        username: 'second_admin',
        rules: ['member'],
      });
      const second = await t.loginAdmin({ username: 'second_admin', password });
      const start = t.clock.now();
      for (let i = 0; i < 3; i += 1) {
        t.clock.advance(1000);
        await call(second.token, 'members/create', {
          username: `made${i}`,
          password: 'pass word 1',
        });
      }
      t.clock.advance(1000);
      await call(founder, 'roles/create', { name: 'Late role', rules: [] });

      const mine = await entries({ adminId: admin.id });
      expect(mine.records.map((e) => e.target)).toEqual([
        expect.stringContaining('made2'),
        expect.stringContaining('made1'),
        expect.stringContaining('made0'),
      ]);
      const ranged = await entries({ from: start + 1500, to: start + 3000 });
      expect(ranged.records.map((e) => e.action)).toEqual(['members/create', 'members/create']);
      const paged = await call<Paged<AuditEntry>>(founder, 'audit/list', {
        action: 'members/create',
        pageSize: 2,
        page: 2,
      });
      expect(paged.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(paged.data.records[0]?.target).toContain('made0');

      const options = await call<AuditOptions>(founder, 'audit/options');
      expect(options.data.actions).toEqual(
        expect.arrayContaining([
          { action: 'admins/create', text: '添加管理员' },
          { action: 'members/create', text: '添加会员' },
          { action: 'roles/create', text: '添加角色' },
        ]),
      );
      expect(options.data.admins).toContainEqual({ id: admin.id, username: 'second_admin' });
    });
  });
});

describe('the phrase of an action', () => {
  it('names the route in words, and the library of a file manager action', () => {
    expect(auditActionText('zh-CN', 'data/file_manager/image:fileDelete')).toBe(
      '删除文件 · 图片库',
    );
    expect(auditActionText('en', 'data/file_manager/image:fileDelete')).toBe(
      'Delete files · Image Gallery',
    );
    expect(auditActionText('zh-CN', 'aigc/chat_room/save')).toBe('保存聊天室');
    expect(auditActionText('en', 'aigc/chat_room/save')).toBe('Save room');
    expect(auditActionText('en', 'admins/reset_password')).toBe('Reset administrator password');
  });

  it('keeps an action it has no phrase for (a route since removed) as it was stored', () => {
    expect(auditPhrase('gone/route')).toBeUndefined();
    expect(auditActionText('zh-CN', 'gone/route')).toBe('gone/route');
    expect(auditPhrase('data/file_manager/scrolls:fileDelete')).toBeUndefined();
  });
});

describe('what counts as a write', () => {
  it('names the action by path, plus the body action of the file manager', () => {
    expect(auditAction('/admin/api/admins/disable?x=1', {})).toBe('admins/disable');
    expect(auditAction('/admin/api/audit/list', { action: 'x:fileDelete' })).toBe('audit/list');
    expect(auditAction('/admin/data/file_manager/file', { action: 'fileDelete' })).toBe(
      'data/file_manager/file:fileDelete',
    );
  });

  it('treats reading verbs as reads and anything else as a write', () => {
    for (const read of [
      'data/file_manager/image:trash',
      'data/file_manager/image:usage',
      'admins/list',
      'members/get',
      'aigc/chat_room/all',
      'aigc/chat_room/models',
      'aigc/usage/summary',
      'aigc/usage/quota',
      'captcha/image',
      'x/y:config',
      'a:init',
    ]) {
      expect(isReadAction(read), read).toBe(true);
    }
    for (const write of ['admins/create', 'settings/upload/save', 'auth/logout', 'x:fileEdit']) {
      expect(isReadAction(write), write).toBe(false);
    }
  });

  it('classes every declared admin call: the writes are exactly these', () => {
    // A new call lands here and is audited unless its verb reads: this list says which.
    expect(Object.keys(adminTable).filter((path) => !isReadAction(path))).toEqual([
      'auth/login',
      'auth/logout',
      'system/message/save',
      'system/message/test',
      'system/login_captcha/save',
      'admins/create',
      'admins/edit',
      'admins/disable',
      'admins/enable',
      'admins/reset_password',
      'admins/delete',
      'roles/create',
      'roles/edit',
      'roles/delete',
      'members/create',
      'members/disable',
      'members/enable',
      'members/reset_password',
      'setting/save',
      'settings/upload/save',
      'aigc/provider/save',
      'aigc/provider/delete',
      'aigc/provider/test',
      'aigc/model/save',
      'aigc/model/delete',
      'aigc/chat_room/save',
      'aigc/chat_room/enable',
      'aigc/chat_room/sort',
      'aigc/chat_room/delete',
      'aigc/usage/quota_save',
      'aigc/share/setting_save',
    ]);
  });

  it('describes the target and hides secrets at any depth', () => {
    expect(auditTarget({ id: [3, 5] }, null)).toBe('#3,5');
    expect(auditTarget({ title: 'Cats' }, { id: 9 })).toBe('#9 Cats');
    expect(auditDetail({ provider: { apiKey: 'sk-1', name: 'p' }, token: 't' })).toBe(
      '{"provider":{"apiKey":"***","name":"p"},"token":"***"}',
    );
  });
});
