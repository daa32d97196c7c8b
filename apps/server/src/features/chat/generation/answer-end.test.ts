import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../testing/fake-openai';
import { testDbKinds } from '../../../testing/db';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { chatDb } from '../chat.tables';
import {
  listen,
  newConversation,
  seedRoom,
  send,
  TEST_API_KEY,
  removeQuota,
  until,
  watch,
  type Seeded,
} from '../chat.testing';

/**
 * The end of an answer (generation.ts, `finish`): its last words are written and shown by the
 * group commit's next tick, like any others, and do not wait for the end's own writes (its
 * citations, its row, its usage), which a thousand answers ending together queue one behind
 * another.
 */
describe.each(testDbKinds)("an answer's last words on %s", (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let seeded: Seeded;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    // A long tick: the last words arrive (with the provider's end) while the earlier ones wait
    // for it, so they are in no write yet when the answer ends.
    t = await createTestApp({ db: kind, deps: { aigc: { generation: { flushTickMs: 1_000 } } } });
    base = await listen(t.app);
    seeded = await seedRoom(t, fake);
    await removeQuota(t, seeded);
  });

  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  /**
   * Runs `during` while no answer's end can be written: on SQLite the instance's one connection
   * is held (not its turn to write: the group commit writes on its own thread, in its turn); on
   * PostgreSQL the answer's row is share-locked, which the appends take too but the end's update
   * waits for.
   */
  async function holdingEnds(messageId: number, during: () => Promise<void>): Promise<void> {
    if (kind === 'sqlite') {
      await t.db.connection().execute(async (connection) => {
        await sql`select id from chat_messages where id = ${messageId}`.execute(connection);
        await during();
      });
      return;
    }
    await t.db.transaction().execute(async (trx) => {
      await sql`select id from chat_messages where id = ${messageId} for share`.execute(trx);
      await during();
    });
  }

  it('shows the last words before the end is written, and the end once it is', async () => {
    const token = (await t.loginMember()).token;
    const conversation = await newConversation(t, token, seeded.room.id);
    fake.script({ chunks: ['Ahoy', ' there', ' matey'], firstDelayMs: 200, delayMs: 100 });
    const sent = await send(t, token, conversation.id, 'Hello');
    const id = sent.json.data.assistantMessage.id;
    const seen = watch(base, token, id);
    await until(() => seen.text === 'Ahoy');

    await holdingEnds(id, async () => {
      await until(() => seen.text === 'Ahoy there matey', 5_000);
      // The provider has ended; its end waits for the database.
      expect(fake.completions().at(-1)).toMatchObject({ finished: true });
      expect(seen.end).toBeUndefined();
    });

    await seen.closed;
    expect(seen.end).toMatchObject({ event: 'done', data: { status: 'done' } });
    const row = await chatDb(t.db)
      .selectFrom('chatMessages')
      .select(['content', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ content: 'Ahoy there matey', status: 'done' });
  });
});
