import type { AdminRoomRecord } from '@atrium/shared/contract/chat';
import type { FileRecord, ListResponse, UsageResponse } from '@atrium/shared/contract/files';
import { dataPathOf, roomRefKinds } from '@atrium/shared/file-refs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesDb } from './library.tables';
import { startFakeOpenAi, type FakeOpenAi } from '../../testing/fake-openai';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  expectOk,
  newConversation,
  seedRoom,
  send,
  TEST_API_KEY,
  type Seeded,
} from '../chat/chat.testing';
import { FileRefs, holdFiles } from './file-refs';
import { CategoriesRepository } from './categories.repository';
import { FilesRepository } from './files.repository';
import { TrashRepository } from './trash.repository';
import { FileClient, useUploadConfig } from './library.testing';

/** A small PNG, different for each seed (so each upload is a blob of its own). */
const png = (seed: number) =>
  sharp({
    create: { width: 4, height: 4, channels: 3, background: { r: seed % 256, g: 7, b: 9 } },
  })
    .png()
    .toBuffer();

describe.each(testDbKinds)('where files are used (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeOpenAi;
  let seeded: Seeded;
  let admin: FileClient;
  let seed = 0;
  const adminAs = () => ({ area: 'admin' as const, token: seeded.adminToken });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
    seeded = await seedRoom(t, fake, {}, { vision: true });
    await expectOk(
      t,
      '/admin/api/aigc/usage/quota_save',
      { messagesPerDay: 0, tokensPerDay: 0, messagesPerMinute: 0 },
      adminAs(),
    );
    admin = new FileClient(t, { area: 'admin', token: seeded.adminToken }, 'image');
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  const image = async (client: FileClient = admin): Promise<FileRecord> => {
    seed += 1;
    return client.uploadAndSave({ name: `picture-${seed}.png`, data: await png(seed) });
  };
  const usage = async (client: FileClient, ids: number[]) => {
    const answer = await client.call<UsageResponse>({ action: 'usage', id: ids });
    expect(answer.code, answer.msg).toBe(0);
    return answer.data;
  };
  const listed = async (client: FileClient, body: Record<string, unknown> = {}) => {
    const answer = await client.call<ListResponse>({ action: 'list', ...body });
    expect(answer.code, answer.msg).toBe(0);
    return answer.data;
  };
  /** Saves a room; `room`'s own fields only (an answer carries more than a request takes). */
  const saveRoom = ({ id, title, cover, description }: Partial<AdminRoomRecord>) =>
    t.post<AdminRoomRecord>(
      '/admin/api/aigc/chat_room/save',
      { id, title: title ?? 'Room', cover, description },
      adminAs(),
    );

  /** The graph agrees with the places and the counters with the graph. */
  async function expectConsistent() {
    const db = filesDb(t.db);
    const files = await db.selectFrom('files').select(['path', 'useCount']).execute();
    const refs = await db.selectFrom('fileRefs').select(['path']).execute();
    for (const file of files) {
      expect(file.useCount, file.path).toBe(refs.filter((r) => r.path === file.path).length);
    }
    const stats = await db.selectFrom('fileLibraryStats').selectAll().execute();
    for (const stat of stats) {
      const unused = await db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('ownerType', '=', stat.ownerType)
        .where('ownerId', '=', stat.ownerId)
        .where('library', '=', stat.library)
        .where('useCount', '=', 0)
        .executeTakeFirstOrThrow();
      expect(stat.unusedCount).toBe(Number(unused.n));
    }
    const rooms = await db
      .withTables<{ chatRooms: { id: number; cover: string } }>()
      .selectFrom('chatRooms')
      .select(['id', 'cover'])
      .execute();
    for (const room of rooms) {
      const covers = await db
        .selectFrom('fileRefs')
        .select('path')
        .where('kind', '=', 'roomCover')
        .where('holderId', '=', room.id)
        .execute();
      const held = dataPathOf(room.cover);
      expect(covers.map((c) => c.path)).toEqual(held ? [held] : []);
    }
  }

  it('counts and names the places that use a file, lists unused files, and asks before deleting a used one', async () => {
    const cover = await image();
    const spare = await image();
    const { json } = await saveRoom({
      id: 0,
      title: 'Welcome room',
      cover: cover.fullPath,
      description: `<p>Look <img src="${cover.path}"></p>`,
    });
    expect(json.code, json.msg).toBe(0);
    const room = json.data;

    const page = await listed(admin);
    expect(page.records.find((r) => r.id === cover.id)?.useCount).toBe(2);
    expect(page.records.find((r) => r.id === spare.id)?.useCount).toBe(0);
    const [used] = await usage(admin, [cover.id]);
    expect(used).toMatchObject({ id: cover.id, useCount: 2, hidden: 0 });
    expect(used?.usedBy.map((u) => [u.kind, u.holderId, u.label]).sort()).toEqual([
      ['roomCover', room.id, 'Welcome room'],
      ['roomDescription', room.id, 'Welcome room'],
    ]);

    // The same places in the page itself, for every record on it.
    const withPlaces = await listed(admin, { withUsage: true });
    expect(withPlaces.records.find((r) => r.id === cover.id)?.usedBy).toEqual(used?.usedBy);
    expect(withPlaces.records.find((r) => r.id === spare.id)).toMatchObject({
      usedBy: [],
      usedByHidden: 0,
    });

    const unused = await listed(admin, { unused: true });
    expect(unused.records.map((r) => r.id)).toContain(spare.id);
    expect(unused.records.map((r) => r.id)).not.toContain(cover.id);
    expect(unused.total).toBe(unused.records.length);

    const refused = await admin.in('en').call({ action: 'fileDelete', id: [cover.id] });
    expect(refused.code).not.toBe(0);
    expect(refused.msg).toBe(
      'In use, delete anyway only with confirm: room "Welcome room" (cover); room "Welcome room" (description)',
    );
    expect(refused.data).toMatchObject({ error: 'files.inUse', field: 'confirm' });
    expect((await admin.call({ action: 'fileDelete', id: [cover.id] })).msg).toBe(
      '文件正在使用中，只有确认后才能删除：聊天室 “Welcome room”（封面）；聊天室 “Welcome room”（介绍）',
    );
    expect((await listed(admin)).records.map((r) => r.id)).toContain(cover.id);

    // Re-pointed elsewhere, the file is free to go without asking.
    const moved = await saveRoom({ ...room, cover: spare.path, description: '' });
    expect(moved.json.code, moved.json.msg).toBe(0);
    expect((await usage(admin, [cover.id]))[0]?.useCount).toBe(0);
    expect((await admin.call({ action: 'fileDelete', id: [cover.id] })).code).toBe(0);
    // A place can't start using a file that is gone.
    const gone = await saveRoom({ ...room, cover: cover.path });
    expect(gone.json.code).not.toBe(0);
    expect(gone.json.data).toMatchObject({
      error: 'files.fileGone',
      params: { path: cover.path },
      field: 'cover',
    });
    // Confirmed, a used file goes.
    expect((await admin.call({ action: 'fileDelete', id: [spare.id] })).code).not.toBe(0);
    expect((await admin.call({ action: 'fileDelete', id: [spare.id], confirm: true })).code).toBe(
      0,
    );
    await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: room.id }, adminAs());
    await expectConsistent();
  });

  it('records site settings and member avatars, each member seeing only their own places', async () => {
    const logo = await image();
    const current = await expectOk<Record<string, unknown>>(
      t,
      '/admin/api/setting/get',
      {},
      adminAs(),
    );
    await expectOk(
      t,
      '/admin/api/setting/save',
      {
        settings: {
          ...current,
          logo: logo.path,
          about: `<p><a href="${logo.fullPath}">logo</a></p>`,
        },
      },
      adminAs(),
    );
    const [site] = await usage(admin, [logo.id]);
    expect(site?.usedBy.map((u) => u.kind).sort()).toEqual(['siteAbout', 'siteLogo']);

    const { token } = await t.loginMember();
    const member = new FileClient(t, { area: 'member', token }, 'image');
    const avatar = await image(member);
    const profile = await t.post(
      '/api/account/profile/save',
      {
        nickname: 'Ann',
        avatar: avatar.path,
      },
      { area: 'member', token },
    );
    expect(profile.json.code, profile.json.msg).toBe(0);
    const [own] = await usage(member, [avatar.id]);
    expect(own?.usedBy).toEqual([expect.objectContaining({ kind: 'memberAvatar', label: 'Ann' })]);
    // A member deletes their own used file without being asked (their library, their places).
    expect((await member.call({ action: 'fileDelete', id: [avatar.id] })).code).toBe(0);
    await expectOk(
      t,
      '/admin/api/setting/save',
      { settings: { ...current, logo: '', about: '' } },
      adminAs(),
    );
    expect((await usage(admin, [logo.id]))[0]?.useCount).toBe(0);
    await expectConsistent();
  });

  it('keeps showing a chat image after the member deletes the file, until the conversation goes', async () => {
    const { token } = await t.loginMember();
    const member = new FileClient(t, { area: 'member', token }, 'image');
    const picture = await image(member);
    const conversation = await newConversation(t, token, seeded.room.id);
    const sent = await send(t, token, conversation.id, 'what is this?', [picture.path]);
    expect(sent.json.code, sent.json.msg).toBe(0);
    const [used] = await usage(member, [picture.id]);
    expect(used?.usedBy).toEqual([
      expect.objectContaining({ kind: 'chatImage', conversationId: conversation.id }),
    ]);
    expect((await member.call({ action: 'fileDelete', id: [picture.id] })).code).toBe(0);
    const served = await t.app.inject({ method: 'GET', url: picture.path });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(await png(seed))).toBe(true);

    await expectOk(
      t,
      '/api/aigc/conversation/delete',
      { id: conversation.id },
      { area: 'member', token },
    );
    const db = filesDb(t.db);
    expect(
      await db.selectFrom('fileRefs').select('id').where('path', '=', picture.path).execute(),
    ).toEqual([]);
    // Nothing holds the blob now: the sweeper frees it and the address stops answering.
    await t.app.features.files.uploads.sweep(t.clock.now());
    expect((await t.app.inject({ method: 'GET', url: picture.path })).statusCode).toBe(404);
    await expectConsistent();
  });

  it('replaces a file in place: same address, new bytes everywhere it is used, old bytes freed', async () => {
    const { token } = await t.loginMember();
    const member = new FileClient(t, { area: 'member', token }, 'image');
    const original = await image(member);
    const originalBytes = await png(seed);
    const conversation = await newConversation(t, token, seeded.room.id);
    expect((await send(t, token, conversation.id, 'look', [original.path])).json.code).toBe(0);
    const before = await t.app.inject({ method: 'GET', url: original.path });
    const thumbBefore = await t.app.inject({ method: 'GET', url: original.thumbnail ?? '' });
    expect(before.headers['cache-control']).toBe('public, no-cache');
    const db = filesDb(t.db);
    const oldBlob = (
      await db
        .selectFrom('files')
        .select('blobId')
        .where('id', '=', original.id)
        .executeTakeFirstOrThrow()
    ).blobId;

    seed += 1;
    const newBytes = await png(seed);
    const upload = await member.upload({ name: 'new.png', data: newBytes });
    expect(upload.code, upload.msg).toBe(0);
    const path = upload.data.path ?? '';
    const gif = await sharp({
      create: { width: 3, height: 3, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .gif()
      .toBuffer();
    const wrongType = await member.upload({ name: 'new.gif', data: gif });
    expect(wrongType.code, wrongType.msg).toBe(0);
    const refused = await member.call({
      action: 'replace',
      id: original.id,
      path: wrongType.data.path,
    });
    expect(refused).toMatchObject({
      msg: '新版本必须是 .png 文件，与被替换的文件相同',
      data: { error: 'files.replaceSameType', params: { ext: 'png' }, field: 'path' },
    });
    // Someone else's upload can't become your file's content.
    const other = await admin.upload({ name: 'other.png', data: await png(seed + 1000) });
    const stolen = await member.call({ action: 'replace', id: original.id, path: other.data.path });
    expect(stolen.data).toMatchObject({ error: 'files.noSuchUpload', field: 'path' });

    const replaced = await member.call<FileRecord>({ action: 'replace', id: original.id, path });
    expect(replaced.code, replaced.msg).toBe(0);
    expect(replaced.data).toMatchObject({
      id: original.id,
      path: original.path,
      size: newBytes.length,
    });
    expect(replaced.data.thumbnail).not.toBe(original.thumbnail);

    // The address serves the new bytes, even to a cache holding the old ones.
    const after = await t.app.inject({
      method: 'GET',
      url: original.path,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(newBytes)).toBe(true);
    const thumbAfter = await t.app.inject({
      method: 'GET',
      url: original.thumbnail ?? '',
      headers: { 'if-none-match': String(thumbBefore.headers.etag) },
    });
    expect(thumbAfter.statusCode).toBe(200);
    expect(thumbAfter.headers.etag).not.toBe(thumbBefore.headers.etag);
    const unchanged = await t.app.inject({
      method: 'GET',
      url: original.path,
      headers: { 'if-none-match': String(after.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    // The upload used for it is gone; the old bytes are freed (nothing holds them any more).
    expect((await member.call({ action: 'save', path, name: 'x.png' })).code).not.toBe(0);
    expect(
      await db.selectFrom('fileBlobs').select('id').where('id', '=', oldBlob).execute(),
    ).toEqual([]);
    // The chat image keeps the new bytes of its own: deleted from the library, it still shows them.
    expect((await member.call({ action: 'fileDelete', id: [original.id] })).code).toBe(0);
    expect((await member.call({ action: 'purge', all: true })).code).toBe(0);
    const kept = await t.app.inject({ method: 'GET', url: original.path });
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.equals(newBytes)).toBe(true);
    expect(kept.rawPayload.equals(originalBytes)).toBe(false);
    await expectConsistent();
  });

  // SQLite runs one write transaction at a time; PostgreSQL needs the row locks this checks.
  it.runIf(kind === 'postgres')(
    'orders a delete and a re-point that overlap: each waits for the other and sees what it did',
    async () => {
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const settled = async (promise: Promise<unknown>) =>
        Promise.race([promise.then(() => true), sleep(400).then(() => false)]);
      const room = (await saveRoom({ id: 0, title: 'Lock room' })).json.data;
      const holder = { kinds: roomRefKinds, holderId: room.id, memberId: null };

      // A place starts using the file; a delete arriving meanwhile waits, then sees the use.
      const a = await image();
      let deleting: Promise<{ code: number; msg: string; data: unknown }> | undefined;
      let deleteWaited = false;
      await t.db.transaction().execute(async (trx) => {
        await holdFiles(trx, holder, [{ kind: 'roomCover', path: a.path }]);
        deleting = admin.call({ action: 'fileDelete', id: [a.id] });
        deleteWaited = !(await settled(deleting));
      });
      expect(deleteWaited).toBe(true);
      expect((await deleting)?.data).toMatchObject({ error: 'files.inUse' });

      // A delete is under way; a place starting to use the file meanwhile waits, then is refused.
      const b = await image();
      let pointing: Promise<{ json: { code: number; msg: string; data: unknown } }> | undefined;
      let pointWaited = false;
      await t.db.transaction().execute(async (trx) => {
        // What `fileDelete` does, held open: lock, move to the trash, count it out.
        const scope = { owner: { type: 'admin' as const, id: 0 }, library: 'image' as const };
        const repo = new FilesRepository(filesDb(trx));
        const cats = new CategoriesRepository(filesDb(trx));
        await new FileRefs(filesDb(trx)).lockForDelete([b.id]);
        await new TrashRepository(filesDb(trx)).trashFiles(
          await repo.filesByIds(scope, [b.id]),
          Date.now(),
        );
        await cats.addToCategoryCount(0, -1);
        await repo.addToLibraryCount(scope, -1, -1);
        pointing = saveRoom({ ...room, cover: b.path });
        pointWaited = !(await settled(pointing));
      });
      expect(pointWaited).toBe(true);
      expect((await pointing)?.json.data).toMatchObject({
        error: 'files.fileGone',
        field: 'cover',
      });
      await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: room.id }, adminAs());
    },
  );

  it('never leaves a place pointing at a file deleted while it was re-pointed to it', async () => {
    for (let round = 0; round < 3; round += 1) {
      const a = await image();
      const b = await image();
      const rooms = await Promise.all(
        [1, 2, 3].map(async (n) => (await saveRoom({ id: 0, title: `Race ${n}` })).json.data),
      );
      const work: Promise<unknown>[] = [];
      for (let i = 0; i < 12; i += 1) {
        const room = rooms[i % rooms.length] as AdminRoomRecord;
        work.push(saveRoom({ ...room, cover: (i % 2 === 0 ? a : b).path }));
        if (i % 4 === 0) work.push(admin.call({ action: 'fileDelete', id: [a.id] }));
      }
      await Promise.all(work);
      const aLeft = (await listed(admin)).records.some((r) => r.id === a.id);
      const db = filesDb(t.db);
      const pointing = await db
        .selectFrom('fileRefs')
        .select('holderId')
        .where('path', '=', a.path)
        .execute();
      // Either the file stayed (and may be used) or it went and nothing points at it.
      if (!aLeft) expect(pointing).toEqual([]);
      await expectConsistent();
      for (const room of rooms)
        await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: room?.id }, adminAs());
    }
  });
});
