import type { MessageStatus } from '@atrium/shared/contract/chat';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds } from '../../../testing/db';
import type { ChatDb } from '../chat.tables';
import { AnswerRepository } from './answers.repository';

describe.each(testDbKinds)('appending streamed text on %s', (kind) => {
  it('appends only the new text, once per seq, to rows still streaming by this writer', async () => {
    const { db, cleanup } = await createTestDb(kind);
    try {
      // Bare rows: their conversations, members and rooms play no part here.
      if (kind === 'sqlite') await sql`pragma foreign_keys = off`.execute(db);
      await db.transaction().execute(async (trx) => {
        if (kind === 'postgres') {
          await sql`set local session_replication_role = replica`.execute(trx);
        }
        const chat = trx as unknown as ChatDb;
        const row = (status: MessageStatus, writer: string) => ({
          conversationId: 1,
          role: 'assistant' as const,
          content: 'Hi',
          images: '[]',
          error: '',
          status,
          writerInstance: writer,
          createdAt: 1,
          updatedAt: 1,
        });
        const ids = [];
        for (const [status, writer] of [
          ['streaming', 'w'],
          ['streaming', 'other'],
          ['done', 'w'],
        ] as const) {
          const { id } = await chat
            .insertInto('chatMessages')
            .values(row(status, writer))
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(Number(id));
        }
        const [mine, theirs, ended] = ids as [number, number, number];
        const repo = new AnswerRepository(chat);
        const append = (id: number, text: string, seq: number) =>
          repo.appendContent([{ id, text, seq }], 'w', 5);

        expect(
          await repo.appendContent(
            [
              { id: mine, text: ', hello', seq: 1 },
              { id: theirs, text: 'no', seq: 1 },
              { id: ended, text: 'no', seq: 1 },
            ],
            'w',
            5,
          ),
        ).toEqual(new Set([mine]));
        expect(await append(mine, ' wörld 😀', 2)).toEqual(new Set([mine]));
        // A write that committed though its caller saw it fail, tried again: not doubled.
        expect(await append(mine, ' wörld 😀', 2)).toEqual(new Set([mine]));
        // A seq out of step with the row's is not written.
        expect(await append(mine, ' lost', 4)).toEqual(new Set());

        const rows = await chat
          .selectFrom('chatMessages')
          .select(['id', 'content', 'seq', 'updatedAt'])
          .orderBy('id')
          .execute();
        expect(rows.map((r) => [r.content, Number(r.seq)])).toEqual([
          ['Hi, hello wörld 😀', 2],
          ['Hi', 0],
          ['Hi', 0],
        ]);
        expect(Number(rows[0]?.updatedAt)).toBe(5);
      });
    } finally {
      await cleanup();
    }
  });
});
