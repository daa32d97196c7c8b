import type { ListResponse, SavedFile } from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesDb } from './library.tables';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { FileClient, textFile, useUploadConfig } from './library.testing';

describe.each(testDbKinds)('a duplicate upload (issue 28) (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const member = async () =>
    new FileClient(t, { area: 'member', ...(await t.loginMember()) }, 'file');
  const save = async (c: FileClient, file: { name: string; data: Buffer }, categoryId: number) => {
    const done = await c.upload(file);
    expect(done.code, done.msg).toBe(0);
    const saved = await c.call<SavedFile>({
      action: 'save',
      path: done.data.path,
      name: file.name,
      size: file.data.length,
      categoryId,
    });
    expect(saved.code, saved.msg).toBe(0);
    return saved.data;
  };
  const listed = async (c: FileClient, categoryId: number) =>
    (await c.call<ListResponse>({ action: 'list', page: 1, categoryId })).data.records;
  const unsavedUploads = async () =>
    (await filesDb(t.db).selectFrom('uploads').select('id').execute()).length;

  it('answers the existing file of the category for the same bytes and name, filing no twin', async () => {
    const c = await member();
    const file = { name: 'batch-05.txt', data: textFile(2500, 'batch five') };
    const first = await save(c, file, 0);
    expect(first.existing).toBeUndefined();
    const before = await unsavedUploads();

    const again = await save(c, file, 0);
    expect(again).toMatchObject({ id: first.id, path: first.path, existing: true });
    expect((await listed(c, 0)).map((r) => r.name)).toEqual(['batch-05.txt']);
    // The instant upload init gave for the second send is let go at once.
    expect(await unsavedUploads()).toBe(before);
  });

  it('answers a save sent again for the same upload as the first did: the file it filed, not a twin', async () => {
    const c = await member();
    const file = { name: 'retried.txt', data: textFile(2550, 'sent twice') };
    const done = await c.upload(file);
    const body = {
      action: 'save',
      path: done.data.path,
      name: file.name,
      size: file.data.length,
      categoryId: 0,
    };
    const first = await c.call<SavedFile>(body);
    const again = await c.call<SavedFile>(body);
    expect(again.code, again.msg).toBe(0);
    expect(again.data).toEqual(first.data);
    expect(again.data.existing).toBeUndefined();
    expect((await listed(c, 0)).filter((r) => r.name === 'retried.txt')).toHaveLength(1);
  });

  it('files the same bytes under another name, or in another category, as a file of its own', async () => {
    const c = await member();
    const made = await c.call<{ id: number }>({
      action: 'categoryEdit',
      id: 0,
      pid: 0,
      title: 'B',
    });
    const other = made.data.id;
    const data = textFile(2600, 'same bytes');
    const first = await save(c, { name: 'logo.txt', data }, 0);
    const renamed = await save(c, { name: 'logo-old.txt', data }, 0);
    const elsewhere = await save(c, { name: 'logo.txt', data }, other);
    expect(renamed.existing).toBeUndefined();
    expect(elsewhere.existing).toBeUndefined();
    expect(new Set([first.id, renamed.id, elsewhere.id]).size).toBe(3);
    expect((await listed(c, other)).map((r) => r.name)).toEqual(['logo.txt']);
  });

  it("does not answer another owner's file", async () => {
    const file = { name: 'shared.txt', data: textFile(2700, 'two owners') };
    const one = await save(await member(), file, 0);
    const two = await save(await member(), file, 0);
    expect(two.existing).toBeUndefined();
    expect(two.id).not.toBe(one.id);
  });
});
