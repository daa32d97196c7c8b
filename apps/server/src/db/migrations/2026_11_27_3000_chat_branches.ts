import { sql } from 'kysely';
import type { MigrationDb } from '../columns';

/**
 * Edit and branch (SPEC 2.6): each message names the one it follows (`parent_id`), so an edited
 * question starts a branch beside the old one, and a conversation remembers the message its shown
 * branch ends at (`leaf_id`; null: its newest message). Existing conversations are one branch:
 * each message follows the one before it.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('chat_messages').addColumn('parent_id', 'integer').execute();
  await db.schema.alterTable('chat_conversations').addColumn('leaf_id', 'integer').execute();
  await sql`
    update chat_messages set parent_id = (
      select max(earlier.id) from chat_messages earlier
      where earlier.conversation_id = chat_messages.conversation_id
        and earlier.id < chat_messages.id
    )`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('chat_conversations').dropColumn('leaf_id').execute();
  await db.schema.alterTable('chat_messages').dropColumn('parent_id').execute();
}
