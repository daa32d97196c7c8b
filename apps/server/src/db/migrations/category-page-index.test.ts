import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { filesDb } from '../../features/library/library.tables';
import { testDbKinds, testDbPerTest, type TestDb } from '../../testing/db';
import type { MigrationDb } from '../columns';
import { migrateToLatest } from '../migrate';
import { down, up } from './2026_12_06_1000_category_page_index';

/** The columns of the category index, in order. */
async function indexColumns(t: TestDb): Promise<string[]> {
  if (t.kind === 'sqlite') {
    const { rows } = await sql<{ name: string }>`
      select name from pragma_index_info('files_owner_category_idx') order by seqno
    `.execute(t.db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`
    select a.attname as name from pg_index i
    join pg_class c on c.oid = i.indexrelid and c.relname = 'files_owner_category_idx'
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    join lateral unnest(i.indkey) with ordinality as k(attnum, at) on true
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    order by k.at
  `.execute(t.db);
  return rows.map((r) => r.name);
}

/** 60 files in 3 categories of the admin's image library. */
async function fileSome(t: TestDb): Promise<void> {
  const db = filesDb(t.db);
  const blob = await db
    .insertInto('fileBlobs')
    .values({
      name: 'b'.repeat(64),
      md5: 'a'.repeat(32),
      size: 10,
      sentSize: 10,
      stripped: 0,
      storageKey: 'blobs/bb',
      refCount: 60,
      createdAt: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('files')
    .values(
      Array.from({ length: 60 }, (_, i) => ({
        ownerType: 'admin' as const,
        ownerId: 0,
        library: 'image' as const,
        categoryId: 1 + (i % 3),
        blobId: blob.id,
        name: `photo ${String(i)}.png`,
        ext: 'png',
        size: 10,
        path: `/data/image/aa/photo-${String(i)}.png`,
        createdAt: 1_000 + i,
      })),
    )
    .execute();
}

describe.each(testDbKinds)('the category page index on %s', (kind) => {
  const fresh = testDbPerTest();

  it('holds every column a listed file needs after the searched ones; down puts it back', async () => {
    const t = await fresh.open(kind);
    const searched = ['owner_type', 'owner_id', 'library', 'category_id', 'id', 'use_count'];
    const listed = ['blob_id', 'name', 'ext', 'size', 'path', 'created_at'];
    expect(await indexColumns(t)).toEqual([...searched, ...listed]);
    await down(t.db as unknown as MigrationDb);
    expect(await indexColumns(t)).toEqual(searched);
  });
});

describe('the category page index on a SQLite database analyzed before', () => {
  const fresh = testDbPerTest();

  it('counts the new index too (the planner, blind to it, sorted whole libraries through it)', async () => {
    const t = await fresh.open('sqlite');
    await fileSome(t);
    await down(t.db as unknown as MigrationDb);
    await sql`analyze`.execute(t.db);
    await up(t.db as unknown as MigrationDb);
    // As `atrium start` and `atrium migrate` end migrating (nothing else is pending).
    expect(await migrateToLatest(t.db)).toEqual([]);
    const stat = await sql<{ stat: string }>`
        select stat from sqlite_stat1 where idx = 'files_owner_category_idx'
      `.execute(t.db);
    // 60 rows, 3 categories: the planner weighs it against the others' counts, not blind.
    expect(stat.rows[0]?.stat).toMatch(/^60 60 60 60 20 1/);
  });
});
