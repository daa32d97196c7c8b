import { notNull, timestamp, type MigrationDb } from '../columns';

/**
 * The running instances and their heartbeats (DESIGN 2): what an instance holds (a chunk claim,
 * a finish lease, an answer being written) is tied to its row, so another instance can take it
 * over a few seconds after the holder stops beating, instead of waiting out a long lease.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', timestamp, notNull)
    .addColumn('heartbeat_at', timestamp, notNull)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('instances').execute();
}
