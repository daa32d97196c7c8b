import type { AdminRoomRecord } from '@atrium/shared/contract/chat';
import type { CategoryResponse, FileRecord, ListResponse } from '@atrium/shared/contract/files';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAppInstances,
  type AppInstance,
  type AppInstances,
} from '../../testing/app-instances';
import { testDbKinds } from '../../testing/db';
import { startFakeOpenAi, type FakeOpenAi } from '../../testing/fake-openai';
import type { TestApp } from '../../testing/test-app';
import { expectOk, TEST_API_KEY, type Seeded } from '../chat/chat.testing';
import { FileClient, useUploadConfig } from './library.testing';

/**
 * Issue 32: the file library's list, category tree and counts are kept in memory on each
 * instance. Two instances on one database (SQLite file, or PostgreSQL with Redis when
 * TEST_DATABASE_URL and TEST_REDIS_URL are set): after every kind of write on one (an upload
 * filed, a category added, files moved, a room taking a file as its cover, a delete), the very
 * next read on the other, which had the old answer in memory, sees it.
 */

const png = (seed: number) =>
  sharp({
    create: { width: 4, height: 4, channels: 3, background: { r: seed % 256, g: 3, b: 5 } },
  })
    .png()
    .toBuffer();

describe.each(testDbKinds)('the list from memory across instances (%s)', (kind) => {
  let fake: FakeOpenAi;
  let instances: AppInstances;
  let a: AppInstance;
  let b: AppInstance;
  let seeded: Seeded;
  /** The admin's image library through instance `at`. */
  const library = (at: AppInstance) =>
    new FileClient(
      { app: at.app } as unknown as TestApp,
      { area: 'admin', token: seeded.adminToken },
      'image',
    );

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    instances = await createAppInstances({
      db: kind,
      bus: kind === 'postgres' && process.env.TEST_REDIS_URL ? 'redis' : 'memory',
      timing: { heartbeatMs: 200, deadAfterMs: 2_000 },
    });
    a = await instances.start();
    b = await instances.start();
    await useUploadConfig({ app: a.app, clock: { now: Date.now } } as unknown as TestApp);
    seeded = await instances.seedRoom(a, fake);
  });

  afterAll(async () => {
    await instances?.cleanup();
    await fake?.close();
  });

  const list = async (at: AppInstance, body: Record<string, unknown> = {}) => {
    const answer = await library(at).call<ListResponse>({ action: 'list', ...body });
    expect(answer.code, answer.msg).toBe(0);
    return answer.data;
  };
  const ids = (page: ListResponse) => page.records.map((r) => r.id);
  /** Reads twice on `at`: the second answer comes from memory when nothing changed. */
  const listTwice = async (at: AppInstance, body: Record<string, unknown> = {}) => {
    const first = await list(at, body);
    expect(await list(at, body)).toEqual(first);
    return first;
  };

  it('sees on one instance the writes made on the other at its very next read', async () => {
    const before = await listTwice(b);
    const unusedBefore = await listTwice(b, { unused: true });

    // An upload filed on a.
    const picture: FileRecord = await library(a).uploadAndSave({
      name: 'cover.png',
      data: await png(1),
    });
    const afterSave = await list(b);
    expect(ids(afterSave)).toContain(picture.id);
    expect(afterSave.total).toBe(before.total + 1);
    expect((await list(b, { unused: true })).total).toBe(unusedBefore.total + 1);
    await listTwice(b, { keywords: 'cover' });

    // A category added on a: the tree read on b has it.
    const treeBefore = await library(b).call<CategoryResponse>({ action: 'category' });
    expect(treeBefore.code, treeBefore.msg).toBe(0);
    const added = await library(a).call<{ id: number }>({
      action: 'categoryEdit',
      id: 0,
      pid: 0,
      title: 'Covers',
    });
    expect(added.code, added.msg).toBe(0);
    const tree = await library(b).call<CategoryResponse>({ action: 'category' });
    expect(JSON.stringify(tree.data)).toContain('Covers');
    const inCategory = await listTwice(b, { categoryId: added.data.id });
    expect(inCategory.total).toBe(0);

    // The file moved into it on a.
    const moved = await library(a).call({
      action: 'fileEdit',
      id: [picture.id],
      categoryId: added.data.id,
    });
    expect(moved.code, moved.msg).toBe(0);
    expect(ids(await list(b, { categoryId: added.data.id }))).toEqual([picture.id]);
    const searched = await list(b, { keywords: 'cover' });
    expect(searched.records.find((r) => r.id === picture.id)?.categoryId).toBe(added.data.id);

    // A room takes it as its cover on a: no longer unused, used once.
    await listTwice(b, { unused: true });
    await expectOk<AdminRoomRecord>(
      a,
      '/admin/api/aigc/chat_room/save',
      {
        id: seeded.room.id,
        title: seeded.room.title,
        cover: picture.fullPath,
        description: seeded.room.description,
      },
      { area: 'admin', token: seeded.adminToken },
    );
    expect(ids(await list(b, { unused: true }))).not.toContain(picture.id);
    const used = await list(b, { categoryId: added.data.id, withUsage: true });
    expect(used.records[0]).toMatchObject({ id: picture.id, useCount: 1 });
    expect(used.records[0]?.usedBy?.length).toBe(1);

    // The room renamed on a (no library write): b's kept page and references serve, but the
    // place is named afresh.
    await listTwice(b, { categoryId: added.data.id, withUsage: true });
    await expectOk<AdminRoomRecord>(
      a,
      '/admin/api/aigc/chat_room/save',
      {
        id: seeded.room.id,
        title: 'Renamed cover room',
        cover: picture.fullPath,
        description: seeded.room.description,
      },
      { area: 'admin', token: seeded.adminToken },
    );
    const renamed = await list(b, { categoryId: added.data.id, withUsage: true });
    expect(JSON.stringify(renamed.records[0]?.usedBy)).toContain('Renamed cover room');

    // Deleted on a (confirming: a room uses it).
    await listTwice(b);
    const deleted = await library(a).call({
      action: 'fileDelete',
      id: [picture.id],
      confirm: true,
    });
    expect(deleted.code, deleted.msg).toBe(0);
    const afterDelete = await list(b);
    expect(ids(afterDelete)).not.toContain(picture.id);
    expect(afterDelete.total).toBe(before.total);
    expect(await list(b, { categoryId: added.data.id })).toMatchObject({ total: 0, records: [] });
  });
});
