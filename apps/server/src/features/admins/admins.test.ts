import { Code, type AdminAppConfigResponse } from '@atrium/shared';
import type { AdminView } from '@atrium/shared/contract/admins';
import type { Paged } from '@atrium/shared/contract/paging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';

describe.each(testDbKinds)('admin management on %s', (kind) => {
  let t: TestApp;
  let founder: { token: string };
  let founderId: number;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    const created = await t.createAdmin({ username: 'founder', founder: true });
    founderId = created.admin.id;
    founder = await t.loginAdmin({ username: 'founder', password: created.password });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const as = (token: string) => ({ area: 'admin' as const, token });
  const call = <T = unknown>(token: string, path: string, body: Record<string, unknown> = {}) =>
    t.post<T>(`/admin/api/${path}`, body, as(token)).then((r) => r.json);

  async function newRole(name: string, rules: string[]): Promise<number> {
    const res = await call<{ id: number }>(founder.token, 'roles/create', { name, rules });
    expect(res, res.msg).toMatchObject({ code: 0 });
    return res.data.id;
  }

  /** A call asking for its answer in `lang` (Accept-Language), as a browser would. */
  const callIn = async <T = unknown>(
    lang: string,
    token: string,
    path: string,
    body: Record<string, unknown> = {},
  ) => (await t.post<T>(`/admin/api/${path}`, body, { area: 'admin', token, lang })).json;

  const whoAmI = (token: string) =>
    t.post<AdminAppConfigResponse>('/admin/api/app/config', {}, as(token)).then((r) => r.json.data);

  describe('admin list', () => {
    it('pages and searches by username or nickname, with roles', async () => {
      const roleId = await newRole('Listing role', ['dashboard']);
      for (let i = 1; i <= 3; i += 1) {
        const res = await call(founder.token, 'admins/create', {
          username: `lister_${i}`,
          password: 'secret password',
          nickname: i === 3 ? 'Special Nick' : '',
          roleIds: [roleId],
        });
        expect(res.code).toBe(0);
      }
      const page1 = await call<Paged<AdminView>>(founder.token, 'admins/list', {
        keyword: 'LISTER',
        pageSize: 2,
      });
      expect(page1.data.total).toBe(3);
      expect(page1.data.records.map((a) => a.username)).toEqual(['lister_1', 'lister_2']);
      expect(page1.data.records[0]?.roles).toEqual([{ id: roleId, name: 'Listing role' }]);
      const page2 = await call<Paged<AdminView>>(founder.token, 'admins/list', {
        keyword: 'lister',
        pageSize: 2,
        page: 2,
      });
      expect(page2.data.records.map((a) => a.username)).toEqual(['lister_3']);
      const byNick = await call<Paged<AdminView>>(founder.token, 'admins/list', {
        keyword: 'special',
      });
      expect(byNick.data.records.map((a) => a.username)).toEqual(['lister_3']);
      // A % in the search box is a character, not a wildcard.
      const literal = await call<Paged<AdminView>>(founder.token, 'admins/list', { keyword: '%' });
      expect(literal.data.total).toBe(0);
    });
  });

  describe('creating and editing', () => {
    it('a new admin signs in and sees what their roles grant', async () => {
      const roleId = await newRole('Rooms only', ['aigc/chat_room*', 'dashboard']);
      const res = await call<AdminView>(founder.token, 'admins/create', {
        username: 'rooms_keeper',
        password: 'rooms password',
        roleIds: [roleId],
      });
      expect(res.data).toMatchObject({ username: 'rooms_keeper', nickname: 'rooms_keeper' });
      const { token } = await t.loginAdmin({
        username: 'rooms_keeper',
        password: 'rooms password',
      });
      const me = await whoAmI(token);
      expect(me.rules.sort()).toEqual(['aigc/chat_room*', 'dashboard']);
      const shown = me.menus.filter((m) => m.show).map((m) => m.url);
      expect(shown).toContain('dashboard');
      expect(shown).not.toContain('system');
      expect(shown).not.toContain('data');
      expect((await call(token, 'members/list')).code).toBe(Code.NoPermission);
    });

    it('edits nickname and roles; the new roles apply on the next request', async () => {
      const { admin, password } = await t.createAdmin({ username: 'edited', rules: [] });
      const { token } = await t.loginAdmin({ username: 'edited', password });
      expect((await call(token, 'members/list')).code).toBe(Code.NoPermission);
      const roleId = await newRole('Members desk', ['member']);
      const res = await call<AdminView>(founder.token, 'admins/edit', {
        id: admin.id,
        nickname: 'Desk',
        roleIds: [roleId],
      });
      expect(res.data).toMatchObject({
        nickname: 'Desk',
        roles: [{ id: roleId, name: 'Members desk' }],
      });
      expect((await call(token, 'members/list')).code).toBe(0);
    });

    it('refuses a taken username and unknown roles', async () => {
      await t.createAdmin({ username: 'taken_name' });
      const taken = await call(founder.token, 'admins/create', {
        username: 'taken_name',
        password: 'secret password',
      });
      expect(taken).toMatchObject({
        code: Code.Failure,
        msg: '用户名“taken_name”已被占用',
        data: {
          // One wording for a taken username, here as on the members' sign-up.
          error: 'account.usernameTaken',
          params: { username: 'taken_name' },
          field: 'username',
        },
      });
      const unknown = await call(founder.token, 'admins/create', {
        username: 'fresh_name',
        password: 'secret password',
        roleIds: [99999],
      });
      expect(unknown).toMatchObject({
        code: Code.Failure,
        msg: '角色 99999 不存在',
        data: { error: 'admin.rolesNotFound', field: 'roleIds' },
      });
      const short = await call(founder.token, 'admins/create', {
        username: 'x1',
        password: 'short',
      });
      expect(short).toMatchObject({
        msg: '密码至少需要 8 个字符',
        data: { error: 'validation.tooShort', field: 'password' },
      });
    });

    it('refuses in the language the request asks for: zh-CN or en', async () => {
      const body = { username: 'taken_name', password: 'secret password' };
      const zh = await callIn('zh-CN,zh;q=0.9', founder.token, 'admins/create', body);
      const en = await callIn('en-US,en;q=0.9', founder.token, 'admins/create', body);
      expect(zh).toMatchObject({ msg: '用户名“taken_name”已被占用' });
      expect(en).toMatchObject({ msg: 'Username taken_name is taken' });
      for (const res of [zh, en]) {
        expect(res).toMatchObject({ code: Code.Failure, data: { error: 'account.usernameTaken' } });
      }

      const badName = { username: 'no spaces please', password: 'secret password' };
      const zhName = await callIn('zh-CN', founder.token, 'admins/create', badName);
      const enName = await callIn('en', founder.token, 'admins/create', badName);
      expect(zhName.msg).toBe('用户名只能使用 1-64 位字母、数字或 _ . @ -');
      expect(enName.msg).toBe('Username: use 1-64 letters, digits, _ . @ or -');
      expect(zhName.data).toMatchObject({ error: 'admin.usernameRule', field: 'username' });

      const short = { username: 'fresh_one', password: 'short' };
      expect((await callIn('en', founder.token, 'admins/create', short)).msg).toBe(
        'Password needs at least 8 characters',
      );
      const self = await callIn('en', founder.token, 'admins/delete', { id: founderId });
      expect(self).toMatchObject({
        msg: "You can't delete your own account",
        data: { error: 'admin.cannotDeleteSelf' },
      });
      expect((await callIn('zh-CN', founder.token, 'admins/delete', { id: founderId })).msg).toBe(
        '不能删除自己的账号',
      );
    });
  });

  describe('disabling', () => {
    it('the founder cannot be disabled or deleted, not even by an admin holding every rule', async () => {
      const { token } = await t.loginAdmin({ rules: ['*'] });
      for (const verb of ['disable', 'delete']) {
        const res = await call(token, `admins/${verb}`, { id: founderId });
        expect(res.code).toBe(Code.Failure);
        expect(res.msg).toContain('创始人账号');
      }
      const me = await whoAmI(founder.token);
      expect(me.user.id).toBe(founderId);
    });

    it('nobody disables or deletes themselves', async () => {
      const { admin, password } = await t.createAdmin({
        username: 'self_harm',
        rules: ['system/admin'],
      });
      const { token } = await t.loginAdmin({ username: 'self_harm', password });
      expect((await call(token, 'admins/disable', { id: admin.id })).msg).toBe(
        '不能禁用自己的账号',
      );
      expect((await call(token, 'admins/delete', { id: admin.id })).msg).toBe('不能删除自己的账号');
      expect((await callIn('en', founder.token, 'admins/disable', { id: founderId })).msg).toBe(
        "You can't disable your own account",
      );
    });

    it("a disabled admin's token stops working at once, and enabling does not revive it", async () => {
      const { admin, password } = await t.createAdmin({
        username: 'to_disable',
        rules: ['dashboard'],
      });
      const { token } = await t.loginAdmin({ username: 'to_disable', password });
      expect((await call(token, 'dashboard/stats')).code).toBe(0);

      const res = await call<AdminView>(founder.token, 'admins/disable', { id: admin.id });
      expect(res.data.disabled).toBe(true);
      expect(await callIn('en', token, 'dashboard/stats')).toEqual({
        code: Code.NotLoggedIn,
        msg: 'not logined',
        data: { error: 'http.notLoggedIn', params: {} },
      });
      const login = await t.post('/admin/api/auth/login', { username: 'to_disable', password });
      expect(login.json.code).toBe(Code.Failure);

      expect(
        (await call<AdminView>(founder.token, 'admins/enable', { id: admin.id })).data.disabled,
      ).toBe(false);
      expect((await call(token, 'dashboard/stats')).code).toBe(Code.NotLoggedIn);
      const again = await t.loginAdmin({ username: 'to_disable', password });
      expect((await call(again.token, 'dashboard/stats')).code).toBe(0);
    });

    it('deleting an admin ends their sessions and frees nothing else', async () => {
      const { admin, password } = await t.createAdmin({
        username: 'to_delete',
        rules: ['dashboard'],
      });
      const { token } = await t.loginAdmin({ username: 'to_delete', password });
      expect((await call(founder.token, 'admins/delete', { id: admin.id })).code).toBe(0);
      expect((await call(token, 'dashboard/stats')).code).toBe(Code.NotLoggedIn);
      const list = await call<Paged<AdminView>>(founder.token, 'admins/list', {
        keyword: 'to_delete',
      });
      expect(list.data.total).toBe(0);
    });
  });

  describe('passwords', () => {
    it('a reset replaces the password and signs the admin out everywhere', async () => {
      const { admin, password } = await t.createAdmin({
        username: 'forgetful',
        rules: ['dashboard'],
      });
      const { token } = await t.loginAdmin({ username: 'forgetful', password });
      const res = await call(founder.token, 'admins/reset_password', {
        id: admin.id,
        password: 'brand new password',
      });
      expect(res).toMatchObject({ code: 0, msg: '密码已修改' });
      expect((await call(token, 'dashboard/stats')).code).toBe(Code.NotLoggedIn);
      expect(
        (await t.post('/admin/api/auth/login', { username: 'forgetful', password })).json.code,
      ).toBe(Code.Failure);
      await t.loginAdmin({ username: 'forgetful', password: 'brand new password' });
    });

    it('resetting your own password keeps the session you are using', async () => {
      const { admin, password } = await t.createAdmin({
        username: 'self_reset',
        rules: ['system/admin'],
      });
      const first = await t.loginAdmin({ username: 'self_reset', password });
      const second = await t.loginAdmin({ username: 'self_reset', password });
      const res = await call(first.token, 'admins/reset_password', {
        id: admin.id,
        password: 'self chosen password',
      });
      expect(res.code).toBe(0);
      expect((await call(first.token, 'admins/options')).code).toBe(0);
      expect((await call(second.token, 'admins/options')).code).toBe(Code.NotLoggedIn);
    });

    it("only the founder resets the founder's password", async () => {
      const { token } = await t.loginAdmin({ rules: ['*'] });
      const res = await call(token, 'admins/reset_password', {
        id: founderId,
        password: 'hijacked password',
      });
      expect(res.code).toBe(Code.Failure);
      expect(res).toMatchObject({
        msg: '只有创始人可以修改创始人账号 founder',
        data: { error: 'admin.onlyFounderChangesFounder' },
      });
    });
  });

  describe('system/admin cannot be turned into more power', () => {
    it('refuses handing out a role with rules the actor lacks, even to themselves', async () => {
      const strong = await newRole('Strong', ['*']);
      const { admin, password } = await t.createAdmin({
        username: 'climber',
        rules: ['system/admin'],
      });
      const { token } = await t.loginAdmin({ username: 'climber', password });
      const self = await call(token, 'admins/edit', {
        id: admin.id,
        nickname: 'c',
        roleIds: [strong],
      });
      expect(self).toMatchObject({
        code: Code.Failure,
        msg: '角色 Strong 含有你自己没有的权限',
        data: { error: 'admin.rolesBeyondRules', field: 'roleIds' },
      });
      const other = await call(token, 'admins/create', {
        username: 'climber_friend',
        password: 'secret password',
        roleIds: [strong],
      });
      expect(other.code).toBe(Code.Failure);
      expect((await whoAmI(token)).rules).toEqual(['system/admin']);
    });

    it('refuses managing an admin who holds rules the actor lacks', async () => {
      const { admin } = await t.createAdmin({ username: 'boss', rules: ['system/*'] });
      const { token } = await t.loginAdmin({ rules: ['system/admin'] });
      const res = await call(token, 'admins/disable', { id: admin.id });
      expect(res).toMatchObject({
        code: Code.Failure,
        msg: 'boss 拥有你没有的权限，你不能管理该账号',
      });
      expect((await callIn('en', token, 'admins/disable', { id: admin.id })).msg).toBe(
        "boss holds rules you don't hold, so you can't manage them",
      );
    });
  });
});
