import type { MigrationDb } from '../columns';
import { flag, notNull, timestamp, withId } from '../columns';

/**
 * Share links (issue 18): a read-only snapshot of a conversation's shown branch when it was
 * shared. A link is found by the SHA-256 of its token; the token itself is kept so its owner can
 * copy the link again (it opens nothing a reader of this table could not read in `snapshot`).
 * Deleting the conversation or the member deletes its links.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('chat_shares'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token', 'text', notNull)
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('chat_conversations.id').onDelete('cascade'),
    )
    .addColumn('member_id', 'integer', (c) =>
      c.notNull().references('members.id').onDelete('cascade'),
    )
    .addColumn('public', 'integer', flag)
    .addColumn('title', 'text', notNull)
    .addColumn('room_id', 'integer', notNull)
    .addColumn('room_title', 'text', notNull)
    .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON list of the shown branch's messages (role, content, images, status, createdAt). */
    .addColumn('snapshot', 'text', notNull)
    .addColumn('created_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('chat_shares_member_idx')
    .on('chat_shares')
    .columns(['member_id', 'id'])
    .execute();
  await db.schema
    .createIndex('chat_shares_conversation_idx')
    .on('chat_shares')
    .column('conversation_id')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('chat_shares').execute();
}
