import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from '../columns';

/**
 * Each file library's generation (issue 32): `file_library_stats.generation`, bumped by triggers
 * in the same transaction as any write to the library's files or categories (a reference taken
 * or let go changes `files.use_count`, so it bumps too). Listings are kept in memory tagged with
 * it (features/library/library-answers.ts): a generation read with the library's counts tells
 * every instance whether what it keeps is still the library's state, whoever wrote.
 */
const tables = ['files', 'file_categories'] as const;
const events = ['insert', 'update', 'delete'] as const;

const triggerName = (table: string, event: string) => `${table}_generation_${event}`;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('file_library_stats')
    .addColumn('generation', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db)) {
    await sql`create function file_library_generation_bump() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          update file_library_stats set generation = generation + 1
            where owner_type = old.owner_type and owner_id = old.owner_id and library = old.library;
        end if;
        if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.owner_type <> old.owner_type
            or new.owner_id <> old.owner_id or new.library <> old.library) then
          update file_library_stats set generation = generation + 1
            where owner_type = new.owner_type and owner_id = new.owner_id and library = new.library;
        end if;
        return null;
      end $$`.execute(db);
    // Deferred to the commit: the statistics row is then locked last in every writing
    // transaction, so no new lock order (and no deadlock) comes between writers.
    for (const table of tables)
      await sql`create constraint trigger ${sql.id(`${table}_generation`)}
        after insert or update or delete on ${sql.id(table)}
        deferrable initially deferred
        for each row execute function file_library_generation_bump()`.execute(db);
    return;
  }
  for (const table of tables)
    for (const event of events) {
      const row = event === 'delete' ? 'old' : 'new';
      await sql`create trigger ${sql.id(triggerName(table, event))} after ${sql.raw(event)} on ${sql.id(table)} begin
        update file_library_stats set generation = generation + 1
          where owner_type = ${sql.raw(row)}.owner_type and owner_id = ${sql.raw(row)}.owner_id
            and library = ${sql.raw(row)}.library;
      end`.execute(db);
    }
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    for (const table of tables)
      await sql`drop trigger if exists ${sql.id(`${table}_generation`)} on ${sql.id(table)}`.execute(
        db,
      );
    await sql`drop function if exists file_library_generation_bump()`.execute(db);
  } else {
    for (const table of tables)
      for (const event of events)
        await sql`drop trigger if exists ${sql.id(triggerName(table, event))}`.execute(db);
  }
  await db.schema.alterTable('file_library_stats').dropColumn('generation').execute();
}
