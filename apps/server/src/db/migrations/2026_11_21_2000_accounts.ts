import { notNull, timestamp, withId, type MigrationDb } from '../columns';

/** The outbox of verification and test messages (DESIGN 7). */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('message_outbox'))
    .addColumn('channel', 'text', notNull)
    .addColumn('transport', 'text', notNull)
    .addColumn('target', 'text', notNull)
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('message_outbox_created_idx')
    .on('message_outbox')
    .column('created_at')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('message_outbox').execute();
}
