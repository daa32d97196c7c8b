import { notNull, timestamp, withId, type MigrationDb } from '../columns';

/** Admin management (DESIGN 7): the audit log, and indexes the dashboard's per-day charts read. */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('audit_log'))
    // No foreign key: entries outlive the admin account; the username is kept beside the id.
    .addColumn('admin_id', 'integer', notNull)
    .addColumn('admin_username', 'text', notNull)
    .addColumn('action', 'text', notNull)
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('audit_log_created_idx')
    .on('audit_log')
    .column('created_at')
    .execute();
  await db.schema
    .createIndex('audit_log_admin_idx')
    .on('audit_log')
    .columns(['admin_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('audit_log_action_idx')
    .on('audit_log')
    .columns(['action', 'created_at'])
    .execute();

  await db.schema.createIndex('members_created_idx').on('members').column('created_at').execute();
  await db.schema.createIndex('files_created_idx').on('files').column('created_at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('files_created_idx').execute();
  await db.schema.dropIndex('members_created_idx').execute();
  await db.schema.dropTable('audit_log').execute();
}
