import { Code } from '@atrium/shared';
import type { MemberDetail, MemberView } from '@atrium/shared/contract/members-admin';
import type { Paged } from '@atrium/shared/contract/paging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { FileClient, textFile, useUploadConfig } from '../files/files.testing';

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
      const cases: [Record<string, unknown>, string][] = [
        [
          { username: '1abc', password: 'pass word 1' },
          'username: 3-32 letters, digits or _, starting with a letter',
        ],
        [{ username: 'bobby', password: 'onlyletters' }, 'password: use both letters and digits'],
        [
          { username: 'bobby', password: 'pass word 1', email: 'nope' },
          'email: is not an e-mail address',
        ],
        [
          { username: 'bobby', password: 'pass word 1', phone: 'a@b.cd' },
          'phone: is not a phone number',
        ],
        [{ username: 'alice', password: 'pass word 1' }, 'username: alice is taken'],
      ];
      for (const [body, msg] of cases) {
        expect(await call('create', body)).toMatchObject({ code: Code.Failure, msg });
      }
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
      expect((await call('reset_password', { id: member.id, password: 'fresh pass 9' })).code).toBe(
        0,
      );
      expect((await memberCall(token)).data).toMatchObject({ user: { id: 0 } });
      await t.loginMember({ username: 'forgetter', password: 'fresh pass 9' });
      expect((await call('reset_password', { id: member.id, password: 'short' })).msg).toBe(
        'password: use at least 8 characters',
      );
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
        msg: 'id: member 987654 does not exist',
      });
    });
  });
});
