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
      expect(taken).toMatchObject({ code: Code.Failure, msg: 'username: taken_name is taken' });
      const unknown = await call(founder.token, 'admins/create', {
        username: 'fresh_name',
        password: 'secret password',
        roleIds: [99999],
      });
      expect(unknown).toMatchObject({
        code: Code.Failure,
        msg: 'roleIds: role 99999 does not exist',
      });
      const short = await call(founder.token, 'admins/create', {
        username: 'x1',
        password: 'short',
      });
      expect(short.msg).toBe('password: must be at least 8 characters');
    });
  });

  describe('disabling', () => {
    it('the founder cannot be disabled or deleted, not even by an admin holding every rule', async () => {
      const { token } = await t.loginAdmin({ rules: ['*'] });
      for (const verb of ['disable', 'delete']) {
        const res = await call(token, `admins/${verb}`, { id: founderId });
        expect(res.code).toBe(Code.Failure);
        expect(res.msg).toContain('founder');
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
        "You can't disable your own account",
      );
      expect((await call(token, 'admins/delete', { id: admin.id })).msg).toBe(
        "You can't delete your own account",
      );
      expect((await call(founder.token, 'admins/disable', { id: founderId })).msg).toBe(
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
      expect(await call(token, 'dashboard/stats')).toEqual({
        code: Code.NotLoggedIn,
        msg: 'not logined',
        data: null,
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
      expect(res).toMatchObject({ code: 0, msg: 'Password changed' });
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
      expect(res.msg).toContain('Only the founder');
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
        msg: "roleIds: Strong holds rules you don't hold yourself",
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
        msg: "boss holds rules you don't hold, so you can't manage them",
      });
    });
  });
});
