import { sql } from 'kysely';
import { dataPathsOf, roomHeldPaths, siteHeldPaths, type HeldPath } from '@atrium/shared/file-refs';
import { notNull, timestamp, withId, type MigrationDb } from '../columns';

/**
 * Where each file is used (issue 17): every place that holds a stored file's path records a
 * reference (`file_refs`), in the transaction that writes the place. A file counts the references
 * to its path (`files.use_count`, so a page of the list shows "used by N" for free) and each
 * library counts its unused files (`file_library_stats.unused_count`, the unused filter's total).
 * A chat message's image reference also holds its blob (`blob_id`), so the message keeps showing
 * the image after the member deletes the file.
 *
 * Places holding paths now are recorded here, from the rows as they are.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('file_refs'))
    .addColumn('path', 'text', notNull)
    .addColumn('kind', 'text', notNull)
    // The room, member, admin or chat message holding the path (0 for the site settings).
    .addColumn('holder_id', 'integer', notNull)
    // The member whose place it is (their avatar, their chat): what a member may see of it.
    .addColumn('member_id', 'integer')
    .addColumn('blob_id', 'integer', (c) => c.references('file_blobs.id'))
    .addColumn('created_at', timestamp, notNull)
    .addUniqueConstraint('file_refs_holder_key', ['kind', 'holder_id', 'path'])
    .execute();
  await db.schema.createIndex('file_refs_path_idx').on('file_refs').column('path').execute();
  await db.schema
    .alterTable('files')
    .addColumn('use_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('file_library_stats')
    .addColumn('unused_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The unused filter: newest first among a library's files nothing uses.
  await db.schema
    .createIndex('files_owner_unused_idx')
    .on('files')
    .columns(['owner_type', 'owner_id', 'library', 'use_count', 'id'])
    .execute();

  const now = Date.now();
  const insert = async (refs: HeldPath[], holderId: number, memberId: number | null) => {
    for (const ref of refs) {
      await sql`insert into file_refs (path, kind, holder_id, member_id, created_at)
        values (${ref.path}, ${ref.kind}, ${holderId}, ${memberId}, ${now})
        on conflict do nothing`.execute(db);
    }
  };
  const json = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  };
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');

  const rooms = await sql<{
    id: number;
    cover: string;
    description: string;
    video: string;
    audio: string;
    downloads: string;
  }>`select id, cover, description, intro_video as video, intro_audio as audio, downloads
    from chat_rooms`.execute(db);
  for (const room of rooms.rows) {
    const refs = roomHeldPaths({
      cover: room.cover,
      description: room.description,
      introVideo: room.video,
      introAudio: room.audio,
      downloads: strings(json(room.downloads)),
    });
    await insert(refs, Number(room.id), null);
  }

  const site = await sql<{ value: string }>`select value from settings where key = 'site'`.execute(
    db,
  );
  const stored = json(site.rows[0]?.value ?? '{}');
  if (stored && typeof stored === 'object') {
    const value = stored as Record<string, unknown>;
    const refs = siteHeldPaths({
      logo: text(value.logo),
      favicon: text(value.favicon),
      banners: strings(value.banners),
      about: text(value.about),
    });
    await insert(refs, 0, null);
  }

  const members = await sql<{ id: number; avatar: string }>`
    select id, avatar from members where avatar <> ''`.execute(db);
  for (const member of members.rows) {
    const refs = dataPathsOf([member.avatar]).map((path) => ({ kind: 'memberAvatar', path }));
    await insert(refs as HeldPath[], Number(member.id), Number(member.id));
  }
  const admins = await sql<{ id: number; avatar: string }>`
    select id, avatar from admins where avatar <> ''`.execute(db);
  for (const admin of admins.rows) {
    const refs = dataPathsOf([admin.avatar]).map((path) => ({ kind: 'adminAvatar', path }));
    await insert(refs as HeldPath[], Number(admin.id), null);
  }

  // Chat images hold their blob, so they keep showing whatever happens to the library file.
  const messages = await sql<{ id: number; images: string; member: number }>`
    select m.id, m.images, c.member_id as member from chat_messages m
    join chat_conversations c on c.id = m.conversation_id
    where m.images <> '[]'`.execute(db);
  for (const message of messages.rows) {
    for (const path of dataPathsOf(strings(json(message.images)))) {
      const blob = await sql<{ blob: number }>`
        select blob_id as blob from files where path = ${path}
        union all select blob_id as blob from uploads where path = ${path}`.execute(db);
      const blobId = blob.rows[0] ? Number(blob.rows[0].blob) : null;
      const added = await sql`insert into file_refs
          (path, kind, holder_id, member_id, blob_id, created_at)
        values (${path}, 'chatImage', ${Number(message.id)}, ${Number(message.member)},
          ${blobId}, ${now})
        on conflict do nothing`.execute(db);
      if (blobId !== null && Number(added.numAffectedRows ?? 0) > 0)
        await sql`update file_blobs set ref_count = ref_count + 1 where id = ${blobId}`.execute(db);
    }
  }

  await sql`update files set use_count =
    (select count(*) from file_refs r where r.path = files.path)`.execute(db);
  await sql`update file_library_stats set unused_count = (select count(*) from files f
    where f.owner_type = file_library_stats.owner_type
      and f.owner_id = file_library_stats.owner_id
      and f.library = file_library_stats.library and f.use_count = 0)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`update file_blobs set ref_count = ref_count - (select count(*) from file_refs r
    where r.blob_id = file_blobs.id) where id in (select blob_id from file_refs)`.execute(db);
  await db.schema.dropIndex('files_owner_unused_idx').execute();
  await db.schema.alterTable('file_library_stats').dropColumn('unused_count').execute();
  await db.schema.alterTable('files').dropColumn('use_count').execute();
  await db.schema.dropTable('file_refs').execute();
}
