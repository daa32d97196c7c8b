import { Code } from '@atrium/shared';
import type { RoleView } from '@atrium/shared/contract/admins';
import { describe, expect, it } from 'vitest';
import { type TestApp, useTestApp } from '../../testing/test-app';

let t: TestApp;
let founder: string;

useTestApp(async (app) => {
  t = app;
  founder = (await app.loginAdmin()).token;
});

const call = <T = unknown>(token: string, path: string, body: Record<string, unknown> = {}) =>
  t.post<T>(`/admin/api/${path}`, body, { area: 'admin', token }).then((r) => r.json);

/** A call asking for its answer in `lang` (Accept-Language). */
const callIn = async (lang: string, token: string, path: string, body: Record<string, unknown>) =>
  (await t.post(`/admin/api/${path}`, body, { area: 'admin', token, lang })).json;

const listed = async () =>
  (await call<{ records: RoleView[] }>(founder, 'roles/list')).data.records;

describe('roles', () => {
  it('creates, lists with how many admins hold each, renames and deletes', async () => {
    const created = await call<RoleView>(founder, 'roles/create', {
      name: '  Editors ',
      rules: ['aigc/chat_room*', 'dashboard', 'dashboard'],
    });
    expect(created).toMatchObject({
      code: 0,
      msg: '添加成功',
      data: { name: 'Editors', rules: ['aigc/chat_room*', 'dashboard'], adminCount: 0 },
    });
    const id = created.data.id;

    const edited = await call<RoleView>(founder, 'roles/edit', {
      id,
      name: 'Room editors',
      rules: ['aigc/chat_room*'],
    });
    expect(edited.data).toMatchObject({ name: 'Room editors', rules: ['aigc/chat_room*'] });
    expect((await listed()).find((r) => r.id === id)).toMatchObject({ name: 'Room editors' });

    expect((await call(founder, 'roles/delete', { id })).code).toBe(0);
    expect((await listed()).some((r) => r.id === id)).toBe(false);
  });

  it('a change reaches the role’s admins on their next request', async () => {
    const role = await call<RoleView>(founder, 'roles/create', {
      name: 'Desk',
      rules: ['dashboard'],
    });
    const { admin, password } = await t.createAdmin({ username: 'desk_clerk', rules: [] });
    await t.db
      .insertInto('adminRoles')
      .values({ adminId: admin.id, roleId: role.data.id })
      .execute();
    const { token } = await t.loginAdmin({ username: 'desk_clerk', password });
    expect((await call(token, 'members/list')).code).toBe(Code.NoPermission);
    expect((await listed()).find((r) => r.id === role.data.id)?.adminCount).toBe(1);

    await call(founder, 'roles/edit', {
      id: role.data.id,
      name: 'Desk',
      rules: ['dashboard', 'member'],
    });
    expect((await call(token, 'members/list')).code).toBe(0);

    await call(founder, 'roles/edit', { id: role.data.id, name: 'Desk', rules: [] });
    expect((await call(token, 'members/list')).code).toBe(Code.NoPermission);
    expect((await call(token, 'dashboard/stats')).code).toBe(Code.NoPermission);
  });

  it('refuses deleting a role somebody holds', async () => {
    const { admin } = await t.createAdmin({ username: 'holder', rules: ['dashboard'] });
    const role = (await listed()).find((r) => r.name === admin.username);
    const res = await call(founder, 'roles/delete', { id: role?.id });
    expect(res).toMatchObject({
      code: Code.Failure,
      msg: '角色 holder 正被 1 位管理员使用：请先从他们的账号中移除该角色，再删除',
      data: { error: 'admin.roleInUse', params: { name: 'holder', count: 1 } },
    });
    expect((await callIn('en', founder, 'roles/delete', { id: role?.id })).msg).toBe(
      'Role holder is held by 1 admin(s): take it from them before deleting it',
    );
  });

  it('refuses a duplicate name and malformed rules, naming the field', async () => {
    await call(founder, 'roles/create', { name: 'Twin', rules: [] });
    expect(await call(founder, 'roles/create', { name: 'Twin', rules: [] })).toMatchObject({
      msg: '已存在名为 Twin 的角色',
      data: { error: 'admin.roleNameTaken', field: 'name' },
    });
    expect(await callIn('en', founder, 'roles/create', { name: 'Twin', rules: [] })).toMatchObject({
      msg: 'A role named Twin already exists',
      data: { error: 'admin.roleNameTaken' },
    });
    const bad = { name: 'Bad', rules: ['system admin'] };
    expect(await call(founder, 'roles/create', bad)).toMatchObject({
      msg: '权限规则只能使用字母、数字、_ / . : - 和通配符 *',
      data: { error: 'admin.ruleRule', field: 'rules.0' },
    });
    expect((await callIn('en', founder, 'roles/create', bad)).msg).toBe(
      'Rules: use letters, digits, _ / . : - and the * wildcard',
    );
    expect(await call(founder, 'roles/create', { name: '   ', rules: [] })).toMatchObject({
      msg: '请填写名称',
      data: { error: 'validation.required', field: 'name' },
    });
  });

  it('an admin only writes rules they hold, and only touches roles within them', async () => {
    const { token } = await t.loginAdmin({ rules: ['system/role', 'aigc/*'] });
    const ok = await call<RoleView>(token, 'roles/create', {
      name: 'Sub rooms',
      rules: ['aigc/chat_room*'],
    });
    expect(ok.code).toBe(0);
    const wider = await call(token, 'roles/create', { name: 'Wider', rules: ['aigc/*', 'member'] });
    expect(wider).toMatchObject({
      code: Code.Failure,
      msg: '你不能授予 member：你自己没有该权限',
      data: { error: 'admin.ruleNotHeld', field: 'rules' },
    });
    const all = await call<RoleView>(founder, 'roles/create', { name: 'Everything', rules: ['*'] });
    const tamper = await call(token, 'roles/edit', {
      id: all.data.id,
      name: 'Everything',
      rules: [],
    });
    expect(tamper.msg).toBe('角色 Everything 含有你没有的权限，你不能修改它');
    const tamperEn = await callIn('en', token, 'roles/edit', {
      id: all.data.id,
      name: 'Everything',
      rules: [],
    });
    expect(tamperEn).toMatchObject({
      msg: "Role Everything holds rules you don't hold, so you can't change it",
      data: { error: 'admin.roleBeyondRules' },
    });
  });
});
