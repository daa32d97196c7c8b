import { flag, notNull, timestamp, withId, type MigrationDb } from '../columns';

/** AI providers and models, chat rooms, conversations, messages and usage (DESIGN 8). */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('ai_providers'))
    .addColumn('name', 'text', notNull)
    .addColumn('base_url', 'text', notNull)
    // AES-256-GCM sealed with a key derived from the server secret; '' when there is none.
    .addColumn('api_key_sealed', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('key_hint', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();

  await withId(db, db.schema.createTable('ai_models'))
    .addColumn('provider_id', 'integer', (c) =>
      c.notNull().references('ai_providers.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', notNull)
    .addColumn('title', 'text', notNull)
    .addColumn('vision', 'integer', flag)
    .addColumn('context_length', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('ai_models_provider_idx')
    .on('ai_models')
    .column('provider_id')
    .execute();

  await withId(db, db.schema.createTable('chat_rooms'))
    .addColumn('title', 'text', notNull)
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('model_id', 'integer', (c) => c.references('ai_models.id').onDelete('set null'))
    .addColumn('system_prompt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('prompts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('intro_video', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('intro_audio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();
  await db.schema.createIndex('chat_rooms_model_idx').on('chat_rooms').column('model_id').execute();

  await withId(db, db.schema.createTable('chat_conversations'))
    .addColumn('room_id', 'integer', (c) =>
      c.notNull().references('chat_rooms.id').onDelete('cascade'),
    )
    .addColumn('member_id', 'integer', (c) =>
      c.notNull().references('members.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', notNull)
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('chat_conversations_member_room_idx')
    .on('chat_conversations')
    .columns(['member_id', 'room_id', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('chat_conversations_room_idx')
    .on('chat_conversations')
    .column('room_id')
    .execute();

  await withId(db, db.schema.createTable('chat_messages'))
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('chat_conversations.id').onDelete('cascade'),
    )
    .addColumn('role', 'text', notNull)
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'text', notNull)
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('model_id', 'integer')
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_estimated', 'integer', flag)
    // The generation's delta count when `content` was last written.
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('chat_messages_conversation_idx')
    .on('chat_messages')
    .columns(['conversation_id', 'id'])
    .execute();
  await db.schema
    .createIndex('chat_messages_status_idx')
    .on('chat_messages')
    .column('status')
    .execute();

  // One row per answer asked for; kept when conversations, rooms or members are deleted, so
  // quotas and the usage page cannot be reset by deleting history.
  await withId(db, db.schema.createTable('chat_usage'))
    .addColumn('member_id', 'integer', notNull)
    .addColumn('room_id', 'integer', notNull)
    .addColumn('model_id', 'integer', notNull)
    .addColumn('message_id', 'integer', notNull)
    .addColumn('day', 'text', notNull)
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('estimated', 'integer', flag)
    .addColumn('created_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('chat_usage_member_day_idx')
    .on('chat_usage')
    .columns(['member_id', 'day'])
    .execute();
  await db.schema
    .createIndex('chat_usage_day_idx')
    .on('chat_usage')
    .columns(['day', 'room_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of [
    'chat_usage',
    'chat_messages',
    'chat_conversations',
    'chat_rooms',
    'ai_models',
    'ai_providers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
