import { Code } from '@atrium/shared';
import type {
  ProviderRecord,
  ProviderTestResponse,
  RecordsResponse,
} from '@atrium/shared/contract/chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { startFakeOpenAi, type FakeOpenAi } from '../../testing/fake-openai';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  expectOk,
  newConversation,
  seedRoom,
  send,
  TEST_API_KEY,
  type Seeded,
} from '../chat/chat.testing';
import { render } from '@atrium/shared/messages/catalogue';
import { Messages } from './providers.service';

/** A key typed in for the second address, to tell it apart from the stored one. */
const OTHER_KEY = 'sk-typed-for-the-new-address-4321';

describe.each(testDbKinds)(
  'a stored provider key never follows a changed address on %s',
  (kind) => {
    /** Where the key was saved for; answers only requests that carry it. */
    let a: FakeOpenAi;
    /** Another provider, which answers anyone and records what it was sent. */
    let b: FakeOpenAi;
    let t: TestApp;
    let seeded: Seeded;
    const admin = () => ({ area: 'admin' as const, token: seeded.adminToken });

    const saveProvider = (body: Record<string, unknown>) =>
      t.post<ProviderRecord>(
        '/admin/api/aigc/provider/save',
        { id: seeded.provider.id, name: 'Fake AI', ...body },
        admin(),
      );
    const testProvider = (body: Record<string, unknown>) =>
      t.post<ProviderTestResponse>(
        '/admin/api/aigc/provider/test',
        { id: seeded.provider.id, ...body },
        admin(),
      );
    const stored = async () => {
      const { records } = await expectOk<RecordsResponse<ProviderRecord>>(
        t,
        '/admin/api/aigc/provider/list',
        {},
        admin(),
      );
      return records.find((p) => p.id === seeded.provider.id);
    };
    /** Every header the other provider was ever sent, to search for the stored key. */
    const seenByB = () => JSON.stringify(b.requests.map((r) => r.headers));
    const chatOnce = async (text: string, fake: FakeOpenAi) => {
      const count = fake.completions().length;
      const { token } = await t.loginMember();
      const conversation = await newConversation(t, token, seeded.room.id);
      expect((await send(t, token, conversation.id, text)).json.code).toBe(0);
      await fake.waitFor(
        () => fake.completions().length > count && fake.requests.at(-1)?.finished === true,
      );
      return fake.completions().at(-1);
    };

    beforeAll(async () => {
      a = await startFakeOpenAi({ apiKey: TEST_API_KEY });
      b = await startFakeOpenAi();
      t = await createTestApp({ db: kind });
      seeded = await seedRoom(t, a);
    });

    afterAll(async () => {
      await t.cleanup();
      await a.close();
      await b.close();
    });

    it('lists the models a saved provider offers, with its stored key, without an audit entry', async () => {
      const audited = async () =>
        Number(
          (
            await t.db
              .selectFrom('auditLog' as never)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirst()
          )?.n ?? 0,
        );
      const before = await audited();
      const listed = await expectOk<{ models: string[] }>(
        t,
        '/admin/api/aigc/provider/models',
        { id: seeded.provider.id },
        admin(),
      );
      expect(listed.models).toEqual(['fake-model', 'fake-vision']);
      expect(a.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
      expect(await audited()).toBe(before);
      const { json } = await t.post(
        '/admin/api/aigc/provider/models',
        { id: seeded.provider.id + 1000 },
        admin(),
      );
      expect(json).toMatchObject({
        code: Code.Failure,
        msg: render('zh-CN', Messages.providerNotFound),
        data: { error: 'ai.providerNotFound' },
      });
    });

    it.each([
      ['another server', () => b.url],
      ['another host name for the same server', () => a.url.replace('127.0.0.1', 'localhost')],
      ['another path', () => a.url.replace(/\/v1$/, '/v2')],
      ['another scheme', () => a.url.replace(/^http:/, 'https:')],
    ])('a connection test at %s is refused before anything is sent', async (_name, url) => {
      const before = a.requests.length + b.requests.length;
      const { json } = await testProvider({ baseUrl: url() });
      expect(json).toEqual({
        code: Code.Failure,
        msg: render('zh-CN', Messages.keyForOtherAddress),
        data: { error: 'ai.keyForOtherAddress', params: {}, field: 'apiKey' },
      });
      expect(a.requests.length + b.requests.length).toBe(before);
    });

    it('a connection test at a new address uses only the key typed for it, or none', async () => {
      const none = await testProvider({ baseUrl: b.url, apiKey: '' });
      expect(none.json.code).toBe(0);
      expect(b.requests.at(-1)?.headers.authorization).toBeUndefined();

      const typed = await testProvider({ baseUrl: b.url, apiKey: OTHER_KEY });
      expect(typed.json.data).toMatchObject({ method: 'models' });
      expect(b.requests.at(-1)?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
      expect(seenByB()).not.toContain(TEST_API_KEY);
    });

    it('saving a new address without the key is refused and leaves the provider as it was', async () => {
      const { json } = await saveProvider({ baseUrl: b.url });
      expect(json).toEqual({
        code: Code.Failure,
        msg: render('zh-CN', Messages.keyForOtherAddress),
        data: { error: 'ai.keyForOtherAddress', params: {}, field: 'apiKey' },
      });
      expect(await stored()).toMatchObject({ baseUrl: a.url, hasKey: true, keyHint: '••••cdef' });

      const reply = await chatOnce('still there?', a);
      expect(reply?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
      expect(b.completions()).toHaveLength(0);
    });

    it('a new address saved with the key removed gets no key at all, in chats too', async () => {
      const { json } = await saveProvider({ baseUrl: b.url, apiKey: '' });
      expect(json.code).toBe(0);
      expect(json.data).toMatchObject({ baseUrl: b.url, hasKey: false, keyHint: '' });

      const reply = await chatOnce('who is there?', b);
      expect(reply?.headers.authorization).toBeUndefined();
      expect((await testProvider({})).json.code).toBe(0);
      expect(b.requests.at(-1)?.headers.authorization).toBeUndefined();
      expect(seenByB()).not.toContain(TEST_API_KEY);

      // Back to the first address: the removed key does not come back with it.
      await saveProvider({ baseUrl: a.url });
      expect(await stored()).toMatchObject({ baseUrl: a.url, hasKey: false });
      const refused = (await testProvider({})).json;
      expect(refused.msg).toMatch(/^连接失败：模型服务商拒绝了请求（HTTP 401）/);
      expect(refused.data).toMatchObject({
        error: 'ai.connectionFailed',
        params: { reason: { key: 'ai.providerRefused', params: { status: 401 } } },
      });
    });

    it('a key typed with the new address goes there, and only it', async () => {
      const { json } = await saveProvider({ baseUrl: b.url, apiKey: OTHER_KEY });
      expect(json.data).toMatchObject({ baseUrl: b.url, hasKey: true });
      const reply = await chatOnce('hello b', b);
      expect(reply?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
    });

    it('the same address written differently keeps the key', async () => {
      await expectOk(
        t,
        '/admin/api/aigc/provider/save',
        {
          id: seeded.provider.id,
          name: 'Fake AI',
          baseUrl: a.url,
          apiKey: TEST_API_KEY,
        },
        admin(),
      );
      const port = new URL(a.url).port;
      for (const same of [`${a.url}/`, `HTTP://127.0.0.1:${port}/v1//`]) {
        const tested = await testProvider({ baseUrl: same });
        expect(tested.json, same).toMatchObject({ code: 0, data: { method: 'models' } });
        expect(a.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
        const saved = await saveProvider({ baseUrl: same });
        expect(saved.json.data, same).toMatchObject({ hasKey: true, keyHint: '••••cdef' });
      }
      const reply = await chatOnce('same place', a);
      expect(reply?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    });
  },
);
