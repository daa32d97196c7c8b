import type { MigrationDb } from '../columns';

/**
 * DESIGN 2: an answer being written names the instance writing it, so its liveness comes from
 * that instance's heartbeat (dead 3 s after the last beat) instead of a long-lived bus key.
 * Answers already streaming have no writer: no running instance claims them, so the first
 * sweep ends them as interrupted. The sweep finds streaming rows through the existing status
 * index and joins `instances` by primary key, so no new index is needed.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('chat_messages').addColumn('writer_instance', 'text').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('chat_messages').dropColumn('writer_instance').execute();
}
