import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testDbKinds } from '../../testing/db';
import type { MigrationDb } from '../columns';
import { down, up } from './2026_11_27_3000_chat_branches';

describe.each(testDbKinds)('the chat branches migration on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: kind });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('makes each existing conversation one branch: every message follows the one before it', async () => {
    const admin = await t.loginAdmin();
    const room = await t.post<{ id: number }>(
      '/admin/api/aigc/chat_room/save',
      { id: 0, title: 'Old room' },
      { area: 'admin', token: admin.token },
    );
    const { token } = await t.loginMember();
    const conversation = async () =>
      (
        await t.post<{ id: number }>(
          '/api/aigc/conversation/create',
          { roomId: room.json.data.id },
          { area: 'member', token },
        )
      ).json.data.id;
    const [a, b] = [await conversation(), await conversation()];
    const db = t.db as unknown as MigrationDb;
    await down(db);
    // Messages as they were stored before: no parent, two conversations interleaved.
    const message = async (conversationId: number, role: string, content: string) =>
      sql`insert into chat_messages
            (conversation_id, role, content, images, status, error, created_at, updated_at)
          values (${conversationId}, ${role}, ${content}, '[]', 'done', '', 1, 1)`.execute(db);
    await message(a, 'user', 'a1');
    await message(b, 'user', 'b1');
    await message(a, 'assistant', 'a2');
    await message(b, 'assistant', 'b2');
    await message(a, 'user', 'a3');
    await up(db);

    const rows = await sql<{ id: number; content: string; parentId: number | null }>`
      select id, content, parent_id from chat_messages
      where conversation_id in (${a}, ${b}) order by id`.execute(db);
    const idOf = (content: string) => rows.rows.find((r) => r.content === content)?.id;
    const parents = Object.fromEntries(
      rows.rows.map((r) => [r.content, r.parentId === null ? null : Number(r.parentId)]),
    );
    expect(parents).toEqual({
      a1: null,
      b1: null,
      a2: idOf('a1'),
      b2: idOf('b1'),
      a3: idOf('a2'),
    });
    const leaves = await sql<{ leafId: number | null }>`
      select leaf_id from chat_conversations where id in (${a}, ${b})`.execute(db);
    expect(leaves.rows.map((r) => r.leafId)).toEqual([null, null]);
  });
});
