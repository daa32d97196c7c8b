import { flag, notNull, timestamp, withId, type MigrationDb } from '../columns';

/** Accounts, roles, sessions and settings (DESIGN 3). */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('admins'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', notNull)
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_founder', 'integer', flag)
    .addColumn('disabled', 'integer', flag)
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();

  await withId(db, db.schema.createTable('roles'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();

  await db.schema
    .createTable('admin_roles')
    .addColumn('admin_id', 'integer', (c) =>
      c.notNull().references('admins.id').onDelete('cascade'),
    )
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('admin_roles_pk', ['admin_id', 'role_id'])
    .execute();
  await db.schema.createIndex('admin_roles_role_idx').on('admin_roles').column('role_id').execute();

  await withId(db, db.schema.createTable('members'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('phone', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text', notNull)
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('disabled', 'integer', flag)
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();

  await withId(db, db.schema.createTable('sessions'))
    .addColumn('subject_type', 'text', notNull)
    .addColumn('subject_id', 'integer', notNull)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prev_token_hash', 'text')
    .addColumn('rotated_at', timestamp, notNull)
    .addColumn('created_at', timestamp, notNull)
    .addColumn('last_seen_at', timestamp, notNull)
    .addColumn('expires_at', timestamp, notNull)
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('revoked_at', timestamp)
    .execute();
  await db.schema
    .createIndex('sessions_prev_token_idx')
    .on('sessions')
    .column('prev_token_hash')
    .execute();
  await db.schema
    .createIndex('sessions_subject_idx')
    .on('sessions')
    .columns(['subject_type', 'subject_id'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['settings', 'sessions', 'members', 'admin_roles', 'roles', 'admins']) {
    await db.schema.dropTable(table).execute();
  }
}
