import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from '../columns';
import { trigramIndex } from '../search';

/**
 * Bulk and search (issue 17): `list` sorts by name, size and date and searches names across the
 * library, so each stays an index walk at a million files.
 *
 * - Sorting by name and size: an index each within an owner's library, ending with the id (the
 *   tie-break), so a page is read off the index in either direction. Date order is the id order
 *   (ids are handed out as files are filed), which the existing indexes serve; the index on
 *   `created_at` serves the date range filter.
 * - Name search, SQLite: an FTS5 table with the trigram tokenizer (any substring of 3 or more
 *   characters, case folded) over `files.name`, external content (it stores no copy of the
 *   names) kept by triggers, so every insert, delete and rename of a file updates it in the
 *   same transaction, whoever writes the row.
 * - Name search, PostgreSQL: a pg_trgm GIN index, which serves `name ilike '%…%'`. The extension
 *   is created in `public` (not in the migrating schema, which may be dropped with it); when it
 *   cannot be created (no privilege, not installed) the index is skipped and search is the same
 *   ILIKE without an index: the server logs that once at start (see `nameSearchIndexed`).
 */

const sortIndexes = [
  ['files_owner_name_idx', 'name'],
  ['files_owner_size_idx', 'size'],
  ['files_owner_created_idx', 'created_at'],
] as const;

const owned = ['owner_type', 'owner_id', 'library'];
/** Indexes of earlier migrations that take one more column, and what they were. */
const usedIndexes: Record<'up' | 'down', [name: string, columns: string[]][]> = {
  up: [
    ['files_owner_unused_idx', [...owned, 'use_count', 'id', 'category_id']],
    ['files_owner_category_idx', [...owned, 'category_id', 'id', 'use_count']],
  ],
  down: [
    ['files_owner_unused_idx', [...owned, 'use_count', 'id']],
    ['files_owner_category_idx', [...owned, 'category_id', 'id']],
  ],
};

/** The schema pg_trgm lives in, creating it when missing; undefined when it cannot be had. */
async function trigramSchema(db: MigrationDb): Promise<string | undefined> {
  const find = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const existing = await find();
  if (existing) return existing;
  // Deployments (and test schemas) migrating side by side would race to create it.
  await sql`select pg_advisory_xact_lock(hashtext('atrium:pg_trgm'))`.execute(db);
  for (const create of [
    sql`create extension if not exists pg_trgm with schema public`,
    sql`create extension if not exists pg_trgm`,
  ]) {
    // A failure must not abort the migration's transaction: each attempt is a savepoint.
    await sql`savepoint atrium_trgm`.execute(db);
    try {
      await create.execute(db);
      await sql`release savepoint atrium_trgm`.execute(db);
      return await find();
    } catch {
      await sql`rollback to savepoint atrium_trgm`.execute(db);
    }
  }
  return undefined;
}

export async function up(db: MigrationDb): Promise<void> {
  // The unused filter checks entries of these two indexes without reading rows: in a large
  // subtree it walks the unused files newest first (the category now in the index), in a small
  // one it gathers the subtree's files (their use count now in the index).
  for (const [name, columns] of usedIndexes.up) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('files').columns(columns).execute();
  }
  for (const [name, column] of sortIndexes) {
    await db.schema
      .createIndex(name)
      .on('files')
      .columns(['owner_type', 'owner_id', 'library', column, 'id'])
      .execute();
  }

  if (isPostgres(db)) {
    const schema = await trigramSchema(db);
    if (schema !== undefined) {
      await sql`create index ${sql.id(trigramIndex)} on files
        using gin (name ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    }
    return;
  }

  await sql`create virtual table files_fts using fts5(
    name, content = 'files', content_rowid = 'id', tokenize = 'trigram'
  )`.execute(db);
  await sql`create trigger files_fts_insert after insert on files begin
    insert into files_fts (rowid, name) values (new.id, new.name);
  end`.execute(db);
  await sql`create trigger files_fts_delete after delete on files begin
    insert into files_fts (files_fts, rowid, name) values ('delete', old.id, old.name);
  end`.execute(db);
  await sql`create trigger files_fts_rename after update of name on files begin
    insert into files_fts (files_fts, rowid, name) values ('delete', old.id, old.name);
    insert into files_fts (rowid, name) values (new.id, new.name);
  end`.execute(db);
  await sql`insert into files_fts (files_fts) values ('rebuild')`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists ${sql.id(trigramIndex)}`.execute(db);
  } else {
    for (const trigger of ['files_fts_insert', 'files_fts_delete', 'files_fts_rename'])
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    await sql`drop table if exists files_fts`.execute(db);
  }
  for (const [name] of sortIndexes) await db.schema.dropIndex(name).execute();
  for (const [name, columns] of usedIndexes.down) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('files').columns(columns).execute();
  }
}
