import { Code } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Each admin-management page's calls refuse an admin without the page's rule (1003) and work
 * for one holding just that rule. Bodies are valid, so a pass means the call really ran.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

interface Call {
  path: string;
  body: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

let seq = 0;
const next = () => ++seq;

/** A role nobody holds, granting only rules every page-holder below may hand out. */
async function newRole(): Promise<number> {
  const row = await t.db
    .insertInto('roles')
    .values({ name: `role ${next()}`, rules: '[]', createdAt: 1, updatedAt: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const pages: { rule: string; calls: Call[] }[] = [
  {
    rule: 'system/admin',
    calls: [
      { path: '/admin/api/admins/list', body: () => ({ keyword: 'a' }) },
      { path: '/admin/api/admins/options', body: () => ({}) },
      {
        path: '/admin/api/admins/create',
        body: () => ({ username: `page_admin_${next()}`, password: 'secret password' }),
      },
      {
        path: '/admin/api/admins/edit',
        body: async () => ({ id: (await t.createAdmin()).admin.id, nickname: 'N', roleIds: [] }),
      },
      {
        path: '/admin/api/admins/disable',
        body: async () => ({ id: (await t.createAdmin()).admin.id }),
      },
      {
        path: '/admin/api/admins/enable',
        body: async () => ({ id: (await t.createAdmin()).admin.id }),
      },
      {
        path: '/admin/api/admins/reset_password',
        body: async () => ({ id: (await t.createAdmin()).admin.id, password: 'another secret' }),
      },
      {
        path: '/admin/api/admins/delete',
        body: async () => ({ id: (await t.createAdmin()).admin.id }),
      },
    ],
  },
  {
    rule: 'system/role',
    calls: [
      { path: '/admin/api/roles/list', body: () => ({}) },
      { path: '/admin/api/roles/create', body: () => ({ name: `role ${next()}`, rules: [] }) },
      {
        path: '/admin/api/roles/edit',
        body: async () => ({ id: await newRole(), name: `renamed ${next()}`, rules: [] }),
      },
      { path: '/admin/api/roles/delete', body: async () => ({ id: await newRole() }) },
    ],
  },
  {
    rule: 'member',
    calls: [
      { path: '/admin/api/members/list', body: () => ({ keyword: 'm' }) },
      {
        path: '/admin/api/members/get',
        body: async () => ({ id: (await t.createMember()).member.id }),
      },
      {
        path: '/admin/api/members/create',
        body: () => ({ username: `pageMember${next()}`, password: 'password 123' }),
      },
      {
        path: '/admin/api/members/disable',
        body: async () => ({ id: (await t.createMember()).member.id }),
      },
      {
        path: '/admin/api/members/enable',
        body: async () => ({ id: (await t.createMember()).member.id }),
      },
      {
        path: '/admin/api/members/reset_password',
        body: async () => ({ id: (await t.createMember()).member.id, password: 'password 456' }),
      },
    ],
  },
  {
    rule: 'system/upload',
    calls: [
      { path: '/admin/api/settings/upload/get', body: () => ({}) },
      {
        path: '/admin/api/settings/upload/save',
        body: async () => {
          const { json } = await t.post<{ config: unknown }>(
            '/admin/api/settings/upload/get',
            {},
            { area: 'admin', token: (await t.loginAdmin()).token },
          );
          return { config: json.data.config };
        },
      },
    ],
  },
  { rule: 'dashboard', calls: [{ path: '/admin/api/dashboard/stats', body: () => ({}) }] },
  {
    rule: 'system/audit',
    calls: [
      { path: '/admin/api/audit/list', body: () => ({ action: 'admins/create' }) },
      { path: '/admin/api/audit/options', body: () => ({}) },
    ],
  },
];

describe.each(pages)('page guarded by $rule', ({ rule, calls }) => {
  it.each(calls)('$path refuses without the rule and works with it', async (call) => {
    const others = pages.map((p) => p.rule).filter((r) => r !== rule);
    const without = await t.loginAdmin({ rules: others });
    const refused = await t.post(call.path, await call.body(), {
      area: 'admin',
      token: without.token,
    });
    expect(refused.json).toEqual({
      code: Code.NoPermission,
      msg: '没有权限',
      data: { error: 'http.noPermission', params: {} },
    });

    const holder = await t.loginAdmin({ rules: [rule] });
    const allowed = await t.post(call.path, await call.body(), {
      area: 'admin',
      token: holder.token,
    });
    expect(allowed.json, allowed.json.msg).toMatchObject({ code: Code.Success });
  });
});
