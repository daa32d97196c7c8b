import type { FileRecord, ListResponse, TrashResponse } from '@atrium/shared/contract/files';
import { defaultUploadConfig } from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesDb } from './library.tables';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { FileClient, testChunkSize, textFile, useUploadConfig, type Area } from './library.testing';

const dayMs = 24 * 3_600_000;

describe.each(testDbKinds)('the library trash (%s)', (kind) => {
  let t: TestApp;
  let seed = 0;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const client = async (area: Area) =>
    new FileClient(
      t,
      { area, ...(area === 'admin' ? await t.loginAdmin() : await t.loginMember()) },
      'file',
    );
  const text = () => {
    seed += 1;
    return { name: `notes-${seed}.txt`, data: textFile(3000, `trash ${seed}`) };
  };
  const ok = async <T>(c: FileClient, body: Record<string, unknown>) => {
    const answer = await c.call<T>(body);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data;
  };
  const ids = (page: { records: { id: number }[] }) => page.records.map((r) => r.id);
  const served = async (path: string) =>
    (await t.app.inject({ method: 'GET', url: path })).statusCode;
  const refCount = async (path: string) => {
    const db = filesDb(t.db);
    const row = await db
      .selectFrom('fileBlobs')
      .select('refCount')
      .where(
        'id',
        'in',
        db
          .selectFrom('files')
          .select('blobId')
          .where('path', '=', path)
          .union(db.selectFrom('trashedFiles').select('blobId').where('path', '=', path)),
      )
      .executeTakeFirst();
    return row?.refCount;
  };

  describe.each(['admin', 'member'] as const)('%s library', (area) => {
    it('moves a deleted file to the trash, stops serving it, and restores it where it was', async () => {
      const c = await client(area);
      const { id: categoryId } = await ok<{ id: number }>(c, {
        action: 'categoryEdit',
        id: 0,
        pid: 0,
        title: 'Papers',
      });
      const file = await c.uploadAndSave(text(), categoryId);
      expect(await served(file.path)).toBe(200);
      await ok(c, { action: 'fileDelete', id: [file.id] });

      expect(ids(await ok<ListResponse>(c, { action: 'list' }))).not.toContain(file.id);
      expect(await served(file.path)).toBe(404);
      const trash = await ok<TrashResponse>(c, { action: 'trash' });
      const trashed = trash.records.find((r) => r.id === file.id);
      expect(trashed).toMatchObject({ path: file.path, categoryId, filename: file.filename });
      expect(trashed && trashed.expiresAt - trashed.deletedAt).toBe(
        (defaultUploadConfig.trashDays ?? 30) * dayMs,
      );

      await ok(c, { action: 'restore', id: [file.id] });
      const back = await ok<ListResponse>(c, { action: 'list', categoryId });
      expect(back.records.find((r) => r.id === file.id)).toMatchObject({
        path: file.path,
        categoryId,
      });
      expect(back.total).toBe(1);
      expect(await served(file.path)).toBe(200);
      expect(ids(await ok<TrashResponse>(c, { action: 'trash' }))).not.toContain(file.id);
      // Restoring twice: the second finds nothing in the trash and says so.
      const again = await c.call({ action: 'restore', id: [file.id] });
      expect(again).toMatchObject({
        msg: `文件 ${file.id} 不在回收站中`,
        data: { error: 'files.notInTrash', params: { id: file.id }, field: 'id' },
      });
    });

    it('restores to the root when the category is gone, and re-uploading trashed content restores it', async () => {
      const c = await client(area);
      const { id: categoryId } = await ok<{ id: number }>(c, {
        action: 'categoryEdit',
        id: 0,
        pid: 0,
        title: 'Short-lived',
      });
      const first = await c.uploadAndSave(text(), categoryId);
      await ok(c, { action: 'fileDelete', id: [first.id] });
      await ok(c, { action: 'categoryDelete', id: categoryId });
      await ok(c, { action: 'restore', id: [first.id] });
      const root = await ok<ListResponse>(c, { action: 'list' });
      expect(root.records.find((r) => r.id === first.id)?.categoryId).toBe(0);

      // Same content again while it sits in the trash: no chunk sent, its old address back.
      const upload = { name: 'again.txt', data: textFile(3000, `trash ${seed}`) };
      await ok(c, { action: 'fileDelete', id: [first.id] });
      const init = await c.init(upload);
      expect(init.code, init.msg).toBe(0);
      expect(init.data.path).toBe(first.path);
      expect(init.data.chunkUploaded).toBe(Math.ceil(upload.data.length / testChunkSize));
      const saved = await ok<FileRecord>(c, {
        action: 'save',
        path: first.path,
        name: upload.name,
        categoryId: 0,
      });
      expect(saved.path).toBe(first.path);
      expect(ids(await ok<TrashResponse>(c, { action: 'trash' }))).not.toContain(first.id);
      const all = await ok<ListResponse>(c, { action: 'list' });
      expect(all.records.filter((r) => r.path === first.path)).toHaveLength(1);
      expect(await refCount(first.path)).toBe(1);
      expect(await served(first.path)).toBe(200);
    });

    it('empties the trash for good: the bytes go once nothing holds them', async () => {
      const c = await client(area);
      const a = await c.uploadAndSave(text());
      const b = await c.uploadAndSave(text());
      await ok(c, { action: 'fileDelete', id: [a.id, b.id] });
      const db = filesDb(t.db);
      const blobIds = (
        await db
          .selectFrom('trashedFiles')
          .select('blobId')
          .where('id', 'in', [a.id, b.id])
          .execute()
      ).map((row) => row.blobId);
      expect(blobIds).toHaveLength(2);
      await ok(c, { action: 'purge', id: [a.id] });
      expect(ids(await ok<TrashResponse>(c, { action: 'trash' }))).toEqual([b.id]);
      await ok(c, { action: 'purge', all: true });
      expect((await ok<TrashResponse>(c, { action: 'trash' })).total).toBe(0);
      expect(
        await db.selectFrom('fileBlobs').select('id').where('id', 'in', blobIds).execute(),
      ).toEqual([]);
      // Purged files can't be restored, and nothing of them is served.
      expect((await c.call({ action: 'restore', id: [a.id] })).code).not.toBe(0);
      expect(await served(a.path)).toBe(404);
      expect(await served(b.path)).toBe(404);
      const bad = await c.in('en').call({ action: 'purge' });
      expect(bad).toMatchObject({
        msg: 'Choose files, or all: true to empty the trash',
        data: { error: 'files.purgeWhat', field: 'id' },
      });
    });
  });

  it('lets go of files kept longer than the trashDays setting', async () => {
    const c = await client('admin');
    await useUploadConfig(t, { ...defaultUploadConfig, chunkSize: testChunkSize, trashDays: 2 });
    const file = await c.uploadAndSave(text());
    await ok(c, { action: 'fileDelete', id: [file.id] });
    const trash = await ok<TrashResponse>(c, { action: 'trash' });
    expect(trash.records[0]?.expiresAt).toBe((trash.records[0]?.deletedAt ?? 0) + 2 * dayMs);
    const trashBin = t.app.features.files.trash;
    expect(await trashBin.purgeExpired(t.clock.now() + dayMs)).toBe(0);
    expect(await trashBin.purgeExpired(t.clock.now() + 3 * dayMs)).toBeGreaterThanOrEqual(1);
    expect(ids(await ok<TrashResponse>(c, { action: 'trash' }))).not.toContain(file.id);
    await useUploadConfig(t);
  });

  it('restores or purges a file once when both race for it, and keeps the blob counted right', async () => {
    const c = await client('admin');
    for (let round = 0; round < 4; round += 1) {
      const file = await c.uploadAndSave(text());
      await ok(c, { action: 'fileDelete', id: [file.id] });
      const answers = await Promise.all([
        c.call({ action: 'restore', id: [file.id] }),
        c.call({ action: 'purge', id: [file.id] }),
        c.call({ action: 'restore', id: [file.id] }),
      ]);
      expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
      const listed = ids(await ok<ListResponse>(c, { action: 'list' })).includes(file.id);
      const restored = answers[1]?.code !== 0;
      expect(listed).toBe(restored);
      expect(await refCount(file.path)).toBe(restored ? 1 : undefined);
    }
  });
});
