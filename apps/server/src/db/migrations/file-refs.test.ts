import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClient, useUploadConfig } from '../../features/library/library.testing';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { MigrationDb } from '../columns';
import { filesDb } from '../../features/library/index';
import { down, up } from './2026_11_29_2000_file_refs';
import * as fileSearch from './2026_11_29_7000_file_search';

const png = (red: number) =>
  sharp({ create: { width: 2, height: 2, channels: 3, background: { r: red, g: 1, b: 2 } } })
    .png()
    .toBuffer();

describe.each(testDbKinds)('the file references migration on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('records the places that held paths before it ran, with the counts and the chat images’ blobs', async () => {
    const admin = await t.loginAdmin();
    const library = new FileClient(t, { area: 'admin', token: admin.token }, 'image');
    const cover = await library.uploadAndSave({ name: 'cover.png', data: await png(10) });
    const idle = await library.uploadAndSave({ name: 'idle.png', data: await png(20) });
    const member = await t.loginMember();
    const own = new FileClient(t, { area: 'member', token: member.token }, 'image');
    const avatar = await own.uploadAndSave({ name: 'me.png', data: await png(30) });
    const pasted = await own.uploadAndSave({ name: 'chat.png', data: await png(40) });
    const room = await t.post<{ id: number }>(
      '/admin/api/aigc/chat_room/save',
      { id: 0, title: 'Old room' },
      { area: 'admin', token: admin.token },
    );
    const roomId = room.json.data.id;
    const conversation = await t.post<{ id: number }>(
      '/api/aigc/conversation/create',
      { roomId },
      { area: 'member', token: member.token },
    );

    const db = t.db as unknown as MigrationDb;
    // The later migration that indexes use_count goes first, and comes back after.
    await fileSearch.down(db);
    await down(db);
    // Places as they were written before references existed.
    await sql`update chat_rooms set cover = ${cover.fullPath},
      description = ${`<p><img src="${cover.path}"></p>`} where id = ${roomId}`.execute(db);
    await sql`insert into settings (key, value, updated_at)
      values ('site', ${JSON.stringify({ logo: cover.path, banners: [cover.path] })}, 1)
      on conflict (key) do update set value = excluded.value`.execute(db);
    await sql`update members set avatar = ${avatar.path} where id = ${member.user.id}`.execute(db);
    await sql`insert into chat_messages
        (conversation_id, role, content, images, status, error, created_at, updated_at)
      values (${conversation.json.data.id}, 'user', 'look',
        ${JSON.stringify([pasted.path])}, 'done', '', 1, 1)`.execute(db);
    const blobOf = async (path: string) =>
      filesDb(t.db)
        .selectFrom('files')
        .innerJoin('fileBlobs', 'fileBlobs.id', 'files.blobId')
        .select(['fileBlobs.id', 'fileBlobs.refCount'])
        .where('files.path', '=', path)
        .executeTakeFirstOrThrow();
    const pastedBefore = await blobOf(pasted.path);
    await up(db);
    await fileSearch.up(db);

    const files = filesDb(t.db);
    const refs = await files
      .selectFrom('fileRefs')
      .select(['kind', 'holderId', 'path', 'memberId', 'blobId'])
      .orderBy('id')
      .execute();
    expect(refs.map((r) => [r.kind, r.path]).sort()).toEqual(
      [
        ['roomCover', cover.path],
        ['roomDescription', cover.path],
        ['siteLogo', cover.path],
        ['siteBanner', cover.path],
        ['memberAvatar', avatar.path],
        ['chatImage', pasted.path],
      ].sort(),
    );
    const useOf = async (id: number) =>
      (
        await files
          .selectFrom('files')
          .select('useCount')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).useCount;
    expect(await useOf(cover.id)).toBe(4);
    expect(await useOf(idle.id)).toBe(0);
    expect(await useOf(avatar.id)).toBe(1);
    const chat = refs.find((r) => r.kind === 'chatImage');
    expect(chat).toMatchObject({ memberId: member.user.id, blobId: pastedBefore.id });
    expect((await blobOf(pasted.path)).refCount).toBe(pastedBefore.refCount + 1);
    const stats = await files
      .selectFrom('fileLibraryStats')
      .select(['ownerType', 'unusedCount'])
      .where('library', '=', 'image')
      .execute();
    expect(stats.find((s) => s.ownerType === 'admin')?.unusedCount).toBe(1);
    expect(stats.find((s) => s.ownerType === 'member')?.unusedCount).toBeGreaterThanOrEqual(0);
  });
});
