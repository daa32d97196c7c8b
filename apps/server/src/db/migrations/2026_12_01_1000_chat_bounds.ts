import type { MigrationDb } from '../columns';
import { timestamp } from '../columns';

/**
 * Bounds on documents and archives (issue 26, points 7 and 8).
 *
 * - `chat_doc_extracts.attempts`: how many times an instance took the job. A job whose reader
 *   stopped (its thread crashed, its instance died or gave up) goes back to the queue, and fails
 *   with its reason once it has been taken too often, instead of staying `running` for good.
 * - `chat_archive_jobs`: the one import or export a member runs at a time, on any instance. The
 *   row names the instance running it; a row of a dead instance is free. `conversation_ids`
 *   lists what an unfinished import has written so far (a JSON list), so the next instance to
 *   take the member's row deletes it: an import is all or nothing even when its process dies.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('chat_doc_extracts')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('chat_archive_jobs')
    .addColumn('member_id', 'integer', (c) =>
      c.primaryKey().references('members.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('conversation_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('started_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('chat_archive_jobs').execute();
  await db.schema.alterTable('chat_doc_extracts').dropColumn('attempts').execute();
}
