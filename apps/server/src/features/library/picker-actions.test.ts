import type { AdminRoomRecord } from '@atrium/shared/contract/chat';
import type {
  CategoryDeletePreviewResponse,
  FileRecord,
  ListResponse,
  TrashResponse,
} from '@atrium/shared/contract/files';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { FileClient, textFile, useUploadConfig } from './library.testing';

/** A small PNG, different for each seed (so each upload is a blob of its own). */
const png = (seed: number) =>
  sharp({
    create: { width: 8, height: 6, channels: 3, background: { r: seed % 256, g: 40, b: 90 } },
  })
    .png()
    .toBuffer();

const hourMs = 3_600_000;

/** Issue 28: where the picker's actions end (the trash's previews, a category's delete, counts). */
describe.each(testDbKinds)('the picker actions (%s)', (kind) => {
  let t: TestApp;
  let admin: FileClient;
  let adminToken: string;
  let seed = 0;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
    await signIn();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  /** Signed in again after the clock moved past a session's hour. */
  const signIn = async () => {
    adminToken = (await t.loginAdmin()).token;
    admin = new FileClient(t, { area: 'admin', token: adminToken }, 'image');
  };
  const ok = async <T>(c: FileClient, body: Record<string, unknown>) => {
    const answer = await c.call<T>(body);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data;
  };
  const image = async (categoryId = 0): Promise<FileRecord> => {
    seed += 1;
    return admin.uploadAndSave({ name: `shot-${seed}.png`, data: await png(seed) }, categoryId);
  };
  const get = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname });
  const category = async (title: string, pid = 0) =>
    (await ok<{ id: number }>(admin, { action: 'categoryEdit', id: 0, pid, title })).id;

  it("serves a trashed image and its thumbnail at the trash's signed addresses only", async () => {
    const file = await image();
    await ok(admin, { action: 'fileDelete', id: [file.id] });
    expect((await get(file.fullPath)).statusCode).toBe(404);
    expect(file.thumbnail && (await get(file.thumbnail)).statusCode).toBe(404);

    const trash = await ok<TrashResponse>(admin, { action: 'trash' });
    const trashed = trash.records.find((r) => r.id === file.id);
    expect(trashed?.fullPath).toMatch(/\/data\/trash\/file\/\d+\/\d+\/[\w-]+\/shot-\d+\.png$/);
    const original = await get(trashed?.fullPath ?? '');
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(original.headers['cache-control']).toBe('private, max-age=3600');
    expect(original.headers['x-content-type-options']).toBe('nosniff');
    const thumb = await get(trashed?.thumbnail ?? '');
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');

    // Another file's id under this signature, a changed signature: nothing.
    const forged = (trashed?.fullPath ?? '').replace(`/file/${file.id}/`, `/file/${file.id + 1}/`);
    expect((await get(forged)).statusCode).toBe(404);
    const tampered = (trashed?.fullPath ?? '').replace(/\/([\w-]{10})[\w-]*\//, '/$1xx/');
    expect((await get(tampered)).statusCode).toBe(404);
    // Expired after two hours at most.
    t.clock.advance(2 * hourMs + 1);
    expect((await get(trashed?.fullPath ?? '')).statusCode).toBe(404);
    await signIn();
    const fresh = (await ok<TrashResponse>(admin, { action: 'trash' })).records.find(
      (r) => r.id === file.id,
    );
    expect((await get(fresh?.fullPath ?? '')).statusCode).toBe(200);
    // Gone for good: the signed address too.
    await ok(admin, { action: 'purge', id: [file.id] });
    expect((await get(fresh?.fullPath ?? '')).statusCode).toBe(404);
  });

  it('says what deleting a category moves where, naming the places using its files', async () => {
    const holidays = await category('Holidays');
    const beach = await category('Beach', holidays);
    const cover = await image(holidays);
    await image(holidays);
    await image(beach);
    const saved = await t.post<AdminRoomRecord>(
      '/admin/api/aigc/chat_room/save',
      { id: 0, title: 'Travel room', cover: cover.path, description: '' },
      { area: 'admin', token: adminToken },
    );
    expect(saved.json.code, saved.json.msg).toBe(0);

    const preview = await ok<CategoryDeletePreviewResponse>(admin, {
      action: 'categoryDeletePreview',
      id: holidays,
    });
    expect(preview).toMatchObject({
      files: 2,
      categories: 1,
      filesBelow: 1,
      parent: '图片库',
      moreUsed: 0,
    });
    expect(preview.used).toEqual([
      {
        id: cover.id,
        filename: cover.filename,
        usedBy: [expect.objectContaining({ kind: 'roomCover', label: 'Travel room' })],
        hidden: 0,
      },
    ]);
    const inEnglish = await admin
      .in('en')
      .call<CategoryDeletePreviewResponse>({ action: 'categoryDeletePreview', id: beach });
    expect(inEnglish.data).toMatchObject({ files: 1, categories: 0, parent: 'Holidays', used: [] });

    // The delete does what the preview said.
    await ok(admin, { action: 'categoryDelete', id: holidays });
    const root = await ok<ListResponse>(admin, { action: 'list', categoryId: 0 });
    expect(root.records.find((r) => r.id === cover.id)?.categoryId).toBe(0);
    const missing = await admin.call({ action: 'categoryDeletePreview', id: holidays });
    expect(missing).toMatchObject({ code: -1, data: { error: 'files.categoryMissing' } });
  });

  it("counts a category's unused files exactly past the first page", async () => {
    const member = new FileClient(t, { area: 'member', ...(await t.loginMember()) }, 'file');
    const { id: box } = await ok<{ id: number }>(member, {
      action: 'categoryEdit',
      id: 0,
      pid: 0,
      title: 'Box',
    });
    for (let i = 0; i < 17; i += 1)
      await member.uploadAndSave({ name: `n-${i}.txt`, data: textFile(200, `unused ${i}`) }, box);
    const first = await ok<ListResponse>(member, { action: 'list', categoryId: box, unused: true });
    expect(first.total).toBe(17);
    expect(first.totalCapped).toBeUndefined();
    expect(first.records).toHaveLength(10);
  });
});
