import type { MigrationDb } from '../columns';

/**
 * An answer's usage row is found by its message (issue 32, goal 4): settling an answer's end and
 * recording its usage read `chat_usage` by `message_id`, which no index held, so each walked the
 * table back from its newest row to the answer's own (about one row per answer started since:
 * 65 µs an end at 1,000 live answers, on the event loop's connection).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('chat_usage_message_idx')
    .on('chat_usage')
    .column('message_id')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('chat_usage_message_idx').execute();
}
