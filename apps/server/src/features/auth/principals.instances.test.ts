import { Code, TokenKey } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../testing/test-app';
import { instancesCases, startTwoInstances, type TwoInstances } from '../../testing/two-instances';

/**
 * Issue 32: callers are answered from each instance's memory, yet a sign-out, a password change,
 * a disabled account or a role's new rules on one instance are refused on the other at once. Two
 * instances on one database, with one bus shared in memory, or over Redis (SQLite and PostgreSQL)
 * when TEST_REDIS_URL (and TEST_DATABASE_URL) are set.
 */
describe.each(instancesCases)('principals on two instances ($name)', (c) => {
  const { db } = c;
  let two: TwoInstances;
  let a: TestApp;
  let postB: TestApp['post'];
  let founder: string;

  beforeAll(async () => {
    two = await startTwoInstances(c);
    ({ a, postB } = two);
    founder = (await a.loginAdmin()).token;
  });

  afterAll(async () => {
    await two?.close();
  });

  type Post = TestApp['post'];
  const adminConfig = (post: Post, token: string) =>
    post<{ user: { id: number; nickname?: string }; rules: string[] }>(
      '/admin/api/app/config',
      {},
      { area: 'admin', token },
    );
  const memberConfig = (post: Post, token: string) =>
    post<{ user: { id: number; nickname?: string } }>(
      '/api/app/config',
      {},
      { area: 'member', token },
    );
  /** A call that needs a signed-in admin: answers its envelope code. */
  const adminsList = async (post: Post, token: string) =>
    (await post('/admin/api/admins/list', { page: 1 }, { area: 'admin', token })).json.code;
  /** Used on both instances, so each holds the caller in memory. */
  const warm = async (token: string, area: 'admin' | 'member') => {
    for (const post of [a.post, postB, a.post, postB]) {
      const { json } = await (area === 'admin'
        ? adminConfig(post, token)
        : memberConfig(post, token));
      expect(json.data.user.id).toBeGreaterThan(0);
    }
  };

  it('a sign-out on one instance is refused on the other at once', async () => {
    const { token } = await a.loginAdmin({ username: `out_${db}`, rules: [] });
    await warm(token, 'admin');
    const out = await a.post('/admin/api/auth/logout', {}, { area: 'admin', token });
    expect(out.json.code).toBe(0);
    const after = await adminConfig(postB, token);
    expect(after.json.data.user).toEqual({ id: 0 });
    expect(after.res.headers[TokenKey.admin]).toBeUndefined();
    expect(await adminsList(postB, token)).toBe(Code.NotLoggedIn);
  });

  it("a role's new rules reach its admins on the other instance at once", async () => {
    const role = await a.post<{ id: number }>(
      '/admin/api/roles/create',
      { name: `Auditors ${db}`, rules: ['system/admin'] },
      { area: 'admin', token: founder },
    );
    expect(role.json.code, role.json.msg).toBe(0);
    const created = await a.post<{ id: number }>(
      '/admin/api/admins/create',
      {
        username: `holder_${db}`,
        password: 'holder password 1',
        nickname: '',
        roleIds: [role.json.data.id],
      },
      { area: 'admin', token: founder },
    );
    expect(created.json.code, created.json.msg).toBe(0);
    const { token } = await a.loginAdmin({
      username: `holder_${db}`,
      password: 'holder password 1',
    });
    await warm(token, 'admin');
    expect(await adminsList(postB, token)).toBe(0);

    const edit = await a.post(
      '/admin/api/roles/edit',
      { id: role.json.data.id, name: `Auditors ${db}`, rules: [] },
      { area: 'admin', token: founder },
    );
    expect(edit.json.code, edit.json.msg).toBe(0);
    expect(await adminsList(postB, token)).toBe(Code.NoPermission);
    expect((await adminConfig(postB, token)).json.data.rules).toEqual([]);

    // Disabled on A: refused on B at once, and not let back in by enabling.
    await a.post(
      '/admin/api/admins/disable',
      { id: created.json.data.id },
      { area: 'admin', token: founder },
    );
    expect((await adminConfig(postB, token)).json.data.user).toEqual({ id: 0 });
  });

  it("a member's new password and profile on one instance are seen on the other at once", async () => {
    const { member, password } = await a.createMember({ username: `m_${db}` });
    const first = await a.loginMember({ username: member.username, password });
    const second = await a.loginMember({ username: member.username, password });
    await warm(first.token, 'member');
    await warm(second.token, 'member');

    const saved = await a.post(
      '/api/account/profile/save',
      { nickname: 'Renamed on A', avatar: '' },
      { area: 'member', token: first.token },
    );
    expect(saved.json.code, saved.json.msg).toBe(0);
    expect((await memberConfig(postB, second.token)).json.data.user.nickname).toBe('Renamed on A');

    const changed = await a.post(
      '/api/account/password',
      { oldPassword: password, password: 'a new password 2' },
      { area: 'member', token: first.token },
    );
    expect(changed.json.code, changed.json.msg).toBe(0);
    // Every other session is signed out; the one that changed it stays.
    expect((await memberConfig(postB, second.token)).json.data.user).toEqual({ id: 0 });
    expect((await memberConfig(postB, first.token)).json.data.user.id).toBe(member.id);
  });
});
