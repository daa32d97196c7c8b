import type { MessageStatus } from '@atrium/shared/contract/chat';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds } from '../../../testing/db';
import type { ChatDb } from '../chat.tables';
import { insertBareAnswer } from '../chat.testing';
import { AnswerRepository } from './answers.repository';

/** Runs `body` on bare message rows: their conversations, members and rooms play no part. */
async function withBareRows(
  kind: (typeof testDbKinds)[number],
  body: (
    chat: ChatDb,
    row: (status: MessageStatus, writer: string) => Promise<number>,
  ) => Promise<void>,
) {
  const { db, cleanup } = await createTestDb(kind);
  try {
    if (kind === 'sqlite') await sql`pragma foreign_keys = off`.execute(db);
    await db.transaction().execute(async (trx) => {
      if (kind === 'postgres') await sql`set local session_replication_role = replica`.execute(trx);
      const chat = trx as unknown as ChatDb;
      await body(chat, (status, writer) => insertBareAnswer(chat, { status, writer }));
    });
  } finally {
    await cleanup();
  }
}

const stored = async (chat: ChatDb, id: number) => {
  const row = await chat
    .selectFrom('chatMessages')
    .select(['content', 'seq', 'updatedAt'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { content: row.content, seq: Number(row.seq), updatedAt: Number(row.updatedAt) };
};
const partsOf = async (chat: ChatDb) =>
  (
    await chat
      .selectFrom('chatMessageParts')
      .select(['messageId', 'seq'])
      .orderBy('messageId')
      .orderBy('seq')
      .execute()
  ).map((p) => [Number(p.messageId), Number(p.seq)]);

describe.each(testDbKinds)('streamed text as parts on %s', (kind) => {
  it('appends only to answers still streaming by this writer; every read adds the parts', async () => {
    await withBareRows(kind, async (chat, row) => {
      const [mine, theirs, ended] = [
        await row('streaming', 'w'),
        await row('streaming', 'other'),
        await row('done', 'w'),
      ];
      const repo = new AnswerRepository(chat);
      expect(
        await repo.appendContent(
          [
            { id: mine, text: ', hello', seq: 1 },
            { id: theirs, text: 'no', seq: 1 },
            { id: ended, text: 'no', seq: 1 },
          ],
          'w',
        ),
      ).toEqual(new Set([mine]));
      expect(await repo.appendContent([{ id: mine, text: ' wörld 😀', seq: 2 }], 'w')).toEqual(
        new Set([mine]),
      );
      // The row itself is not rewritten; a read of the message has the whole text and its seq.
      expect(await stored(chat, mine)).toEqual({ content: 'Hi', seq: 0, updatedAt: 1 });
      expect(await repo.findMessage(mine)).toMatchObject({ content: 'Hi, hello wörld 😀', seq: 2 });
      expect(await repo.findMessage(ended)).toMatchObject({ content: 'Hi', seq: 0 });
    });
  });

  it('never stores a write twice when it is tried again, folded or not', async () => {
    await withBareRows(kind, async (chat, row) => {
      const [mine, theirs] = [await row('streaming', 'w'), await row('streaming', 'other')];
      const repo = new AnswerRepository(chat);
      await repo.appendContent([{ id: mine, text: ' one', seq: 1 }], 'w');
      // It committed though its caller saw it fail: tried again, it is kept once, and the
      // answers still live are named (another writer's is not).
      const again = [
        { id: mine, text: ' one', seq: 1 },
        { id: theirs, text: 'no', seq: 1 },
      ];
      expect(await repo.appendContent(again, 'w', true)).toEqual(new Set([mine]));
      await repo.foldAnswers([{ id: mine, text: 'Hi one', seq: 1 }], 'w', 7);
      expect(await repo.appendContent(again, 'w', true)).toEqual(new Set([mine]));
      // One that did not commit is stored when tried again.
      expect(await repo.appendContent([{ id: mine, text: ' two', seq: 2 }], 'w', true)).toEqual(
        new Set([mine]),
      );
      expect(await repo.findMessage(mine)).toMatchObject({ content: 'Hi one two', seq: 2 });
      expect(await repo.findMessage(theirs)).toMatchObject({ content: 'Hi', seq: 0 });
    });
  });

  it("folds the writer's text into its own rows, never back; the sweep keeps only the parts a read needs", async () => {
    await withBareRows(kind, async (chat, row) => {
      const [mine, theirs, endedLater] = [
        await row('streaming', 'w'),
        await row('streaming', 'other'),
        await row('streaming', 'other'),
      ];
      const repo = new AnswerRepository(chat);
      const other = new AnswerRepository(chat);
      await repo.appendContent([{ id: mine, text: ' a', seq: 1 }], 'w');
      await repo.appendContent([{ id: mine, text: ' c', seq: 2 }], 'w');
      await other.appendContent(
        [
          { id: theirs, text: ' b', seq: 1 },
          { id: endedLater, text: ' x', seq: 1 },
        ],
        'other',
      );
      // A part whose message is gone (deleted while it streamed).
      await chat
        .insertInto('chatMessageParts')
        .values({ messageId: 999_999, seq: 1, text: '?' })
        .execute();
      // The other writer ends an answer with its whole text; its parts are of no more use.
      await other.finishMessage(endedLater, 'other', { status: 'done', content: 'Hi x', seq: 1 });

      // Each row takes its writer's whole text; another writer's row is not touched.
      await repo.foldAnswers(
        [
          { id: mine, text: 'Hi a c', seq: 2 },
          { id: theirs, text: 'no', seq: 5 },
        ],
        'w',
        9,
      );
      expect(await stored(chat, mine)).toEqual({ content: 'Hi a c', seq: 2, updatedAt: 9 });
      expect(await stored(chat, theirs)).toEqual({ content: 'Hi', seq: 0, updatedAt: 1 });
      // A fold of an earlier seq (tried again after it committed) leaves the row as it is.
      await repo.foldAnswers([{ id: mine, text: 'Hi a', seq: 1 }], 'w', 10);
      expect(await stored(chat, mine)).toEqual({ content: 'Hi a c', seq: 2, updatedAt: 9 });
      // Reads skip the parts the row holds already.
      await repo.appendContent([{ id: mine, text: ' d', seq: 3 }], 'w');
      expect(await repo.findMessage(mine)).toMatchObject({ content: 'Hi a c d', seq: 3 });

      // A step examines at most its limit: the first two parts (folded) go, the rest stay.
      const first = await repo.sweepParts(0, 2);
      expect(first).toBeGreaterThan(0);
      expect(await partsOf(chat)).toEqual([
        [mine, 3],
        [theirs, 1],
        [endedLater, 1],
        [999_999, 1],
      ]);
      // Step by step to the end: the ended answer's part and the orphan go too.
      let after = first ?? 0;
      let steps = 1;
      for (let bound = await repo.sweepParts(after, 2); bound !== undefined; steps += 1) {
        expect(bound).toBeGreaterThan(after);
        after = bound;
        bound = await repo.sweepParts(after, 2);
      }
      expect(steps).toBe(3);
      expect(await partsOf(chat)).toEqual([
        [mine, 3],
        [theirs, 1],
      ]);
      expect(await repo.findMessage(mine)).toMatchObject({ content: 'Hi a c d', seq: 3 });
      expect(await repo.findMessage(theirs)).toMatchObject({ content: 'Hi b', seq: 1 });
    });
  });

  it('runs a tick: the appends, then the folds, a sweep step and an index step after them', async () => {
    await withBareRows(kind, async (chat, row) => {
      const repo = new AnswerRepository(chat);
      const mine = await row('streaming', 'w');
      await repo.appendContent([{ id: mine, text: ' a', seq: 1 }], 'w');
      const tick = repo.tick({
        appends: [{ id: mine, text: ' b', seq: 2 }],
        again: false,
        writer: 'w',
        folds: [{ id: mine, text: 'Hi a b', seq: 2 }],
        now: 9,
        sweep: { after: 0, limit: 10 },
        index: true,
      });
      expect(await tick.written).toEqual(new Set([mine]));
      const tidied = await tick.tidied;
      // Both parts were folded (the second by this tick's own append), so the step takes both.
      expect(tidied).toMatchObject({ fold: { value: undefined }, index: { value: true } });
      expect(tidied.sweep && 'value' in tidied.sweep && tidied.sweep.value).toBeGreaterThan(0);
      expect(await stored(chat, mine)).toEqual({ content: 'Hi a b', seq: 2, updatedAt: 9 });
      expect(await partsOf(chat)).toEqual([]);
    });
  });
});
