import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../../testing/db';
import type { ChatDb } from '../chat.tables';
import { appendSql, foldSql, liveSql } from './append-sql.mjs';

const ANSWERS = 400;

interface PlanNode {
  'Node Type': string;
  'Function Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Every node of an `explain (analyze, format json)` plan. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** How often the statement read the write's rows out of their JSON (once is what it should). */
async function rowReads(chat: ChatDb, text: string, params: unknown[]): Promise<number[]> {
  const {
    rows: [explained],
  } = await chat.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    CompiledQuery.raw(`explain (analyze, format json) ${text}`, params),
  );
  if (!explained) throw new Error('no plan');
  return nodesOf(explained['QUERY PLAN'][0].Plan)
    .filter((node) => node['Function Name'] === 'jsonb_array_elements')
    .map((node) => node['Actual Loops'] ?? 0);
}

// Issue 32, goal 4 on PostgreSQL: statistics taken while few answers streamed (as autovacuum
// leaves them while a thousand start at once) made the planner reach the streaming rows through
// the status index and read the write's JSON once per row: 500 answers cost 250,000 reads and
// 180 ms a write. Each statement of a write must read its rows once, whatever the
// statistics say.
describe.runIf(process.env.TEST_DATABASE_URL)(
  "a write's statements on PostgreSQL read its rows once",
  () => {
    it('with statistics taken before the answers began', async () => {
      const { db, cleanup } = await createTestDb('postgres');
      try {
        await db.transaction().execute(async (trx) => {
          await sql`set local session_replication_role = replica`.execute(trx);
          const chat = trx as unknown as ChatDb;
          const insert = (count: number, status: string, writer: string | null) =>
            sql`insert into chat_messages (conversation_id, role, content, images, error, status,
                writer_instance, created_at, updated_at)
              select 1, 'assistant', 'Hi', '[]', '', ${status}, ${writer}, 1, 1
              from generate_series(1, ${count})`.execute(trx);
          // Ended answers have no writer; a few answers of other instances streamed.
          await insert(5_000, 'done', null);
          for (const writer of ['a', 'b', 'c']) await insert(1, 'streaming', writer);
          await sql`analyze chat_messages`.execute(trx);
          await insert(ANSWERS, 'streaming', 'w');
          // The planner's choice in the bench (a nested loop), made here whatever the costs.
          await sql`set local enable_hashjoin = off`.execute(trx);
          await sql`set local enable_mergejoin = off`.execute(trx);
          const { rows: ids } = await sql<{ id: number }>`select id from chat_messages
            where writer_instance = 'w' order by id`.execute(trx);
          const rows = JSON.stringify(ids.map(({ id }) => [id, ' more', 1]));
          const fold = foldSql(true);
          const statements: [string, string, unknown[]][] = [
            ['append', appendSql(true, false), [rows, 'w']],
            ['append again', appendSql(true, true), [rows, 'w']],
            ['live', liveSql(true), [rows, 'w']],
            ['fold', fold.text, fold.bind(rows, 'w', 2)],
          ];
          const seen: { name: string; reads: number[] }[] = [];
          for (const [name, text, params] of statements)
            seen.push({ name, reads: await rowReads(chat, text, params) });
          expect(seen.every(({ reads }) => reads.length > 0)).toBe(true);
          expect(seen).toEqual(
            seen.map(({ name, reads }) => ({ name, reads: reads.map(() => 1) })),
          );
        });
      } finally {
        await cleanup();
      }
    });
  },
);
