import { Code, type Envelope } from '@atrium/shared';
import type { MemberDetail, MemberView } from '@atrium/shared/contract/members';
import type { Paged } from '@atrium/shared/contract/paging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { authHeaders, createTestApp, type TestApp } from '../../testing/test-app';
import { FileClient, textFile, useUploadConfig } from '../library/library.testing';

describe.each(testDbKinds)('member management on %s', (kind) => {
  let t: TestApp;
  let founder: string;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    founder = (await t.loginAdmin()).token;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const call = <T = unknown>(path: string, body: Record<string, unknown> = {}) =>
    t
      .post<T>(`/admin/api/members/${path}`, body, { area: 'admin', token: founder })
      .then((r) => r.json);

  /** A call asking for its answer in `lang` (Accept-Language). */
  const callIn = async (lang: string, path: string, body: Record<string, unknown>) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `/admin/api/members/${path}`,
        headers: {
          'content-type': 'application/json',
          'accept-language': lang,
          ...authHeaders('admin', founder),
        },
        payload: JSON.stringify(body),
      })
    ).json<Envelope>();

  const memberCall = (token: string) =>
    t.post('/api/app/config', {}, { area: 'member', token }).then((r) => r.json);

  describe('member accounts', () => {
    it('creates a member who can sign in with username, e-mail or phone', async () => {
      const res = await call<MemberView>('create', {
        username: 'alice',
        password: 'alice pass 1',
        email: 'Alice@Example.com',
        phone: '+8613800138000',
      });
      expect(res).toMatchObject({
        code: 0,
        data: { username: 'alice', nickname: 'alice', email: 'alice@example.com', disabled: false },
      });
      for (const login of ['alice', 'ALICE@example.com', '+8613800138000']) {
        const answer = await t.post('/api/auth/login', {
          username: login,
          password: 'alice pass 1',
        });
        expect(answer.json.code, login).toBe(0);
      }
    });

    it('applies the sign-up rules', async () => {
      const cases: [Record<string, unknown>, { error: string; field: string }][] = [
        [
          { username: '1abc', password: 'pass word 1' },
          { error: 'account.usernameRule', field: 'username' },
        ],
        [
          { username: 'bobby', password: 'onlyletters' },
          { error: 'account.passwordLettersDigits', field: 'password' },
        ],
        [
          { username: 'bobby', password: 'pass word 1', email: 'nope' },
          { error: 'validation.email', field: 'email' },
        ],
        [
          { username: 'bobby', password: 'pass word 1', phone: 'a@b.cd' },
          { error: 'admin.phoneInvalid', field: 'phone' },
        ],
        [
          { username: 'alice', password: 'pass word 1' },
          { error: 'account.usernameTaken', field: 'username' },
        ],
      ];
      for (const [body, data] of cases) {
        expect(await call('create', body)).toMatchObject({ code: Code.Failure, data });
      }
    });

    it('refuses in the language the request asks for', async () => {
      const badPhone = { username: 'bobby', password: 'pass word 1', phone: 'a@b.cd' };
      expect(await callIn('zh-CN', 'create', badPhone)).toMatchObject({
        msg: '手机号不是有效的手机号码',
        data: { error: 'admin.phoneInvalid', field: 'phone' },
      });
      expect((await callIn('en', 'create', badPhone)).msg).toBe(
        'Phone number is not a phone number',
      );
      expect((await callIn('zh-CN', 'get', { id: 987654 })).msg).toBe('会员 987654 不存在');
      expect(await callIn('en', 'get', { id: 987654 })).toMatchObject({
        msg: 'Member 987654 does not exist',
        data: { error: 'admin.memberNotFound', field: 'id' },
      });
      const { member } = await t.createMember({ username: 'polyglot' });
      const zh = await callIn('zh-CN', 'disable', { id: member.id });
      const en = await callIn('en', 'enable', { id: member.id });
      expect([zh.msg, en.msg]).toEqual(['已禁用', 'Enabled']);
    });

    it('searches by username, e-mail or phone, newest first, paged', async () => {
      await t.createMember({ username: 'searchable_one', email: 'one@find.me' });
      await t.createMember({ username: 'searchable_two', phone: '13900000002' });
      await t.createMember({ username: 'other_three', email: 'three@find.me' });
      const byMail = await call<Paged<MemberView>>('list', { keyword: 'FIND.ME' });
      expect(byMail.data.records.map((m) => m.username)).toEqual(['other_three', 'searchable_one']);
      const byPhone = await call<Paged<MemberView>>('list', { keyword: '0000000' });
      expect(byPhone.data.records.map((m) => m.username)).toEqual(['searchable_two']);
      const paged = await call<Paged<MemberView>>('list', {
        keyword: 'searchable',
        pageSize: 1,
        page: 2,
      });
      expect(paged.data).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(paged.data.records.map((m) => m.username)).toEqual(['searchable_one']);
    });

    it('disabling signs the member out at once; enabling lets them sign in again', async () => {
      const { member, password } = await t.createMember({ username: 'noisy' });
      const { token } = await t.loginMember({ username: 'noisy', password });
      expect((await memberCall(token)).data).toMatchObject({ user: { id: member.id } });

      expect((await call<MemberView>('disable', { id: member.id })).data.disabled).toBe(true);
      expect((await memberCall(token)).data).toMatchObject({ user: { id: 0 } });
      expect((await t.post('/api/auth/login', { username: 'noisy', password })).json.code).toBe(
        Code.Failure,
      );

      expect((await call<MemberView>('enable', { id: member.id })).data.disabled).toBe(false);
      expect((await memberCall(token)).data).toMatchObject({ user: { id: 0 } });
      await t.loginMember({ username: 'noisy', password });
    });

    it('resetting the password signs the member out and the new one works', async () => {
      const { member, password } = await t.createMember({ username: 'forgetter' });
      const { token } = await t.loginMember({ username: 'forgetter', password });
      expect(
        await call('reset_password', { id: member.id, password: 'fresh pass 9' }),
      ).toMatchObject({ code: 0, msg: '密码已修改' });
      expect((await memberCall(token)).data).toMatchObject({ user: { id: 0 } });
      await t.loginMember({ username: 'forgetter', password: 'fresh pass 9' });
      expect(await call('reset_password', { id: member.id, password: 'short' })).toMatchObject({
        code: Code.Failure,
        data: { error: 'account.passwordTooShort', field: 'password' },
      });
    });

    it("shows a member with their storage use: the sum of their own library's files", async () => {
      await useUploadConfig(t);
      const { member, password } = await t.createMember({ username: 'hoarder' });
      const { token } = await t.loginMember({ username: 'hoarder', password });
      const files = new FileClient(t, { area: 'member', token }, 'file');
      await files.uploadAndSave({ name: 'a.txt', data: textFile(3000, 'a') });
      await files.uploadAndSave({ name: 'b.txt', data: textFile(1500, 'b') });
      // Someone else's files don't count.
      const other = await t.loginMember();
      await new FileClient(t, { area: 'member', token: other.token }, 'file').uploadAndSave({
        name: 'c.txt',
        data: textFile(999, 'c'),
      });

      const res = await call<MemberDetail>('get', { id: member.id });
      expect(res.data).toMatchObject({
        username: 'hoarder',
        storage: {
          files: 2,
          bytes: 4500,
          libraries: {
            file: { files: 2, bytes: 4500 },
            image: { files: 0, bytes: 0 },
            video: { files: 0, bytes: 0 },
            audio: { files: 0, bytes: 0 },
          },
        },
      });
      expect(res.data.lastActiveAt).toBe(t.clock.now());
      expect(await call('get', { id: 987654 })).toMatchObject({
        code: Code.Failure,
        msg: '会员 987654 不存在',
        data: { error: 'admin.memberNotFound', params: { id: 987654 }, field: 'id' },
      });
    });
  });
});
