import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Code } from '@atrium/shared';
import type { CategoryResponse, FileRecord, ListResponse } from '@atrium/shared/contract/files';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { filesDb } from './library.tables';
import { FileClient, md5Of, textFile, useUploadConfig, type Area } from './library.testing';

function wavFile(seconds: number): Buffer {
  const rate = 8000;
  const samples = Buffer.alloc(rate * seconds, 0x80);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

describe.each(testDbKinds)('file library (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const memberClient = async (library = 'file') =>
    new FileClient(t, { area: 'member', ...(await t.loginMember()) }, library);
  const adminClient = async (rules?: string[], library = 'file') =>
    new FileClient(t, { area: 'admin', ...(await t.loginAdmin(rules ? { rules } : {})) }, library);

  const addCategory = async (c: FileClient, title: string, pid = 0) => {
    const answer = await c.call<{ id: number }>({ action: 'categoryEdit', id: 0, pid, title });
    expect(answer, answer.msg).toMatchObject({ code: 0, msg: '添加成功' });
    return answer.data.id;
  };
  const list = async (c: FileClient, categoryId = 0, page = 1) => {
    const answer = await c.call<ListResponse>({ action: 'list', page, categoryId });
    expect(answer.code, answer.msg).toBe(0);
    return answer.data;
  };
  const names = (records: FileRecord[]) => records.map((r) => r.name);

  describe.each<Area>(['member', 'admin'])('%s area', (area) => {
    let c: FileClient;
    beforeAll(async () => {
      c = area === 'member' ? await memberClient() : await adminClient();
    });

    it('category: a tree under the "<Library> Gallery" root, flattened lists with depth', async () => {
      const empty = await c.call<CategoryResponse>({ action: 'category' });
      expect(empty.data.categoryTreeAll).toEqual([
        {
          id: 0,
          pid: 0,
          name: '文件库',
          title: '文件库',
          sort: 0,
          _child: expect.any(Array),
        },
      ]);
      // The root is named in the request's language.
      const english = await c.in('en').call<CategoryResponse>({ action: 'category' });
      expect(english.data.categoryTreeAll[0]).toMatchObject({
        name: 'File Gallery',
        title: 'File Gallery',
      });
      expect(english.data.categoryListAll[0]).toMatchObject({ title: 'File Gallery' });
      const docs = await addCategory(c, `Docs ${area}`);
      const drafts = await addCategory(c, 'Drafts', docs);
      const old = await addCategory(c, 'Old', drafts);
      const answer = (await c.call<CategoryResponse>({ action: 'category' })).data;
      const root = answer.categoryTreeAll[0];
      const docsNode = root?._child.find((n) => n.id === docs);
      expect(docsNode).toMatchObject({ name: `Docs ${area}`, title: `Docs ${area}`, pid: 0 });
      expect(docsNode?._child[0]).toMatchObject({
        id: drafts,
        pid: docs,
        _child: [{ id: old, pid: drafts, _child: [] }],
      });
      const depths = answer.categoryListAll.map((i) => [i.id, i.depth]);
      expect(depths.slice(0, 1)).toEqual([[0, 0]]);
      expect(depths).toEqual(
        expect.arrayContaining([
          [docs, 1],
          [drafts, 2],
          [old, 3],
        ]),
      );
      expect(answer.categories.map((i) => i.id)).toEqual(
        answer.categoryListAll.slice(1).map((i) => i.id),
      );
      expect(answer.categoryListParent.map((i) => i.id)).toEqual(
        answer.categoryListAll.map((i) => i.id),
      );
      const image = await new FileClient(t, c.as, 'image').call<CategoryResponse>({
        action: 'category',
      });
      expect(image.data.categoryTreeAll).toEqual([
        { id: 0, pid: 0, name: '图片库', title: '图片库', sort: 0, _child: [] },
      ]);
      const englishImage = await new FileClient(t, c.as, 'image', 'en').call<CategoryResponse>({
        action: 'category',
      });
      expect(englishImage.data.categoryTreeAll[0]?.title).toBe('Image Gallery');
    });

    it('save, list (newest first, paged, descendants included), fileEdit, fileDelete', async () => {
      const top = await addCategory(c, 'Top');
      const child = await addCategory(c, 'Child', top);
      const saved: FileRecord[] = [];
      for (let i = 0; i < 12; i += 1) {
        const categoryId = i < 5 ? 0 : i < 9 ? top : child;
        saved.push(
          await c.uploadAndSave(
            { name: `${area}-${i}.txt`, data: textFile(700 + i, `${area} ${i}`) },
            categoryId,
          ),
        );
      }
      expect(saved[0]).toMatchObject({
        category: 'file',
        filename: `${area}-0.txt`,
        name: `${area}-0.txt`,
        type: 'txt',
        size: 700,
        categoryId: 0,
      });
      expect(saved[0]?.fullPath).toBe(`http://localhost:80${saved[0]?.path}`);

      const page1 = await list(c);
      expect(page1.pageSize).toBe(10);
      expect(page1.page).toBe(1);
      expect(page1.total).toBeGreaterThanOrEqual(12);
      expect(names(page1.records).slice(0, 3)).toEqual([
        `${area}-11.txt`,
        `${area}-10.txt`,
        `${area}-9.txt`,
      ]);
      expect(page1.records).toHaveLength(10);

      const topList = await list(c, top);
      expect(topList.total).toBe(7);
      expect(names(topList.records)).toEqual(
        [11, 10, 9, 8, 7, 6, 5].map((i) => `${area}-${i}.txt`),
      );
      expect((await list(c, child)).total).toBe(3);
      const topPage2 = await list(c, top, 2);
      expect(topPage2).toMatchObject({ total: 7, page: 2, records: [] });

      const moved = await c.call({
        action: 'fileEdit',
        categoryId: child,
        id: `${saved[5]?.id},${saved[6]?.id}`,
      });
      expect(moved).toMatchObject({ code: 0, msg: '编辑成功' });
      expect((await list(c, child)).total).toBe(5);
      expect((await list(c, top)).total).toBe(7);

      const removed = await c.in('en').call({
        action: 'fileDelete',
        id: `${saved[9]?.id},${saved[10]?.id}`,
      });
      expect(removed).toMatchObject({ code: 0, msg: 'Delete Success' });
      expect(names((await list(c, child)).records)).toEqual(
        [11, 6, 5].map((i) => `${area}-${i}.txt`),
      );
      expect((await t.app.inject({ method: 'GET', url: saved[9]?.path ?? '' })).statusCode).toBe(
        404,
      );
      expect((await t.app.inject({ method: 'GET', url: saved[11]?.path ?? '' })).statusCode).toBe(
        200,
      );
    });

    it('list with keywords: names holding them, any case, within the category and below, paged', async () => {
      const own = await (area === 'member' ? memberClient() : adminClient());
      const top = await addCategory(own, 'Search top');
      const child = await addCategory(own, 'Search child', top);
      const put = (name: string, categoryId: number) =>
        own.uploadAndSave({ name, data: textFile(600, `${area} ${name}`) }, categoryId);
      await put('Invoice March.txt', 0);
      await put('invoice april.txt', top);
      await put('INVOICE_may.txt', child);
      await put('receipt.txt', child);
      await put('100%_sure.txt', 0);
      for (let i = 0; i < 11; i += 1) await put(`bulk invoice ${i}.txt`, child);
      const search = async (keywords: string, categoryId = 0, page = 1) => {
        const answer = await own.call<ListResponse>({ action: 'list', page, categoryId, keywords });
        expect(answer.code, answer.msg).toBe(0);
        return answer.data;
      };
      const everywhere = await search('invoice');
      // A search counts one page past the page asked for: "more than 10" here, 14 from page 2.
      expect(everywhere).toMatchObject({ total: 10, totalCapped: true });
      expect((await search('invoice', 0, 2)).total).toBe(14);
      expect(names(everywhere.records).slice(0, 2)).toEqual([
        'bulk invoice 10.txt',
        'bulk invoice 9.txt',
      ]);
      expect(names((await search('invoice', 0, 2)).records)).toEqual([
        'bulk invoice 0.txt',
        'INVOICE_may.txt',
        'invoice april.txt',
        'Invoice March.txt',
      ]);
      expect(names((await search('  MAY  ', top)).records)).toEqual(['INVOICE_may.txt']);
      expect((await search('invoice', child, 2)).total).toBe(12);
      // % and _ are letters here, not wildcards.
      expect(names((await search('%_')).records)).toEqual(['100%_sure.txt']);
      expect((await search('e_m')).total).toBe(1);
      expect((await search('nothing like it')).records).toEqual([]);
      // Empty keywords list as before.
      expect((await search('   ', child)).total).toBe(13);
      const tooLong = await own.call({ action: 'list', keywords: 'x'.repeat(101) });
      expect(tooLong.code).toBe(Code.Failure);
      expect(tooLong.msg).toBe('关键词最多 100 个字符');
      expect(tooLong.data).toMatchObject({ error: 'validation.tooLong', field: 'keywords' });
    });

    it('categoryEdit renames and moves; a category cannot move under itself', async () => {
      const a = await addCategory(c, 'A');
      const b = await addCategory(c, 'B', a);
      const renamed = await c
        .in('en')
        .call({ action: 'categoryEdit', id: a, pid: 0, title: 'A renamed' });
      expect(renamed).toMatchObject({ code: 0, msg: 'Add Success' });
      const underItself = await c.call({ action: 'categoryEdit', id: a, pid: b, title: 'A' });
      expect(underItself).toEqual({
        code: Code.Failure,
        msg: '分类不能移动到它自己之下',
        data: { error: 'files.categoryUnderItself', params: {}, field: 'pid' },
      });
      expect(
        (await c.in('en').call({ action: 'categoryEdit', id: a, pid: b, title: 'A' })).msg,
      ).toBe('A category cannot move under itself');
      const ownChild = await c.call({ action: 'categoryEdit', id: a, pid: a, title: 'A' });
      expect(ownChild.code).toBe(Code.Failure);

      const target = await addCategory(c, 'Target');
      const file = await c.uploadAndSave(
        { name: 'in-b.txt', data: textFile(900, `in b ${area}`) },
        b,
      );
      expect(
        (await c.call({ action: 'categoryEdit', id: a, pid: target, title: 'A moved' })).code,
      ).toBe(0);
      expect(names((await list(c, target)).records)).toContain('in-b.txt');
      const tree = (await c.call<CategoryResponse>({ action: 'category' })).data;
      const moved = tree.categoryListAll.find((i) => i.id === b);
      expect(moved?.depth).toBe(3);
      expect(file.path).toBeTruthy();
    });

    it('categoryDelete moves files and sub-categories to the parent', async () => {
      const parent = await addCategory(c, 'Parent');
      const doomed = await addCategory(c, 'Doomed', parent);
      const grandchild = await addCategory(c, 'Grandchild', doomed);
      await c.uploadAndSave({ name: 'doomed.txt', data: textFile(800, `doomed ${area}`) }, doomed);
      await c.uploadAndSave({ name: 'deep.txt', data: textFile(810, `deep ${area}`) }, grandchild);

      const answer = await c.call({ action: 'categoryDelete', id: doomed });
      expect(answer).toMatchObject({ code: 0, msg: '删除成功' });
      const tree = (await c.call<CategoryResponse>({ action: 'category' })).data;
      expect(tree.categoryListAll.find((i) => i.id === doomed)).toBeUndefined();
      expect(tree.categoryListAll.find((i) => i.id === grandchild)).toMatchObject({
        pid: parent,
        depth: 2,
      });
      const parentList = await list(c, parent);
      expect(parentList.total).toBe(2);
      expect(parentList.records.find((r) => r.name === 'doomed.txt')?.categoryId).toBe(parent);
      expect((await list(c, grandchild)).total).toBe(1);
      expect((await c.call({ action: 'list', page: 1, categoryId: doomed })).code).toBe(
        Code.Failure,
      );
    });

    it('refuses bad input with the field named', async () => {
      expect(await c.call({ action: 'nope' })).toMatchObject({
        code: Code.Failure,
        msg: expect.stringMatching(/^操作只能是以下之一：config, init, save, /),
        data: { error: 'validation.oneOf', field: 'action' },
      });
      expect(await c.in('en').call({ action: 'nope' })).toMatchObject({
        msg: expect.stringMatching(/^Action must be one of: config, init, save, /),
      });
      expect(await c.call({ action: 'categoryEdit', id: 0, pid: 0, title: '  ' })).toMatchObject({
        code: Code.Failure,
        msg: '请填写标题',
        data: { error: 'validation.required', field: 'title' },
      });
      expect(await c.call({ action: 'fileDelete', id: '1,,2' })).toMatchObject({
        code: Code.Failure,
        data: { field: 'id' },
      });
      expect(
        await c.call({
          action: 'save',
          path: '/data/file/00/x.txt',
          name: 'x.txt',
          size: 1,
          categoryId: 0,
        }),
      ).toMatchObject({
        code: Code.Failure,
        msg: '这不是已上传文件的地址',
        data: { error: 'files.notUploadPath', field: 'path' },
      });
      const wrongLibrary = await new FileClient(t, c.as, 'books', 'en').call({
        action: 'list',
        page: 1,
        categoryId: 0,
      });
      expect(wrongLibrary).toMatchObject({
        msg: 'Library must be one of: image, file, video, audio',
        data: { error: 'validation.oneOf', field: 'category' },
      });
    });
  });

  describe('two members cannot reach each other’s library', () => {
    let alice: FileClient;
    let bob: FileClient;
    let aliceCategory: number;
    let aliceFile: FileRecord;
    let alicePending: string;

    const snapshot = async () => {
      const db = filesDb(t.db);
      return {
        files: await db.selectFrom('files').selectAll().orderBy('id').execute(),
        categories: await db.selectFrom('fileCategories').selectAll().orderBy('id').execute(),
        blobs: await db.selectFrom('fileBlobs').selectAll().orderBy('id').execute(),
      };
    };

    beforeAll(async () => {
      alice = await memberClient();
      bob = await memberClient();
      aliceCategory = await addCategory(alice, 'Private');
      aliceFile = await alice.uploadAndSave(
        { name: 'secret.txt', data: textFile(1500, 'alice secret') },
        aliceCategory,
      );
      const pending = await alice.upload({
        name: 'pending.txt',
        data: textFile(1400, 'alice pending'),
      });
      alicePending = pending.data.path ?? '';
      await addCategory(bob, 'Bob own');
    });

    it('sees only its own files and categories', async () => {
      expect((await list(bob)).records.map((r) => r.id)).not.toContain(aliceFile.id);
      const tree = (await bob.call<CategoryResponse>({ action: 'category' })).data;
      expect(tree.categoryListAll.map((i) => i.id)).not.toContain(aliceCategory);
    });

    it.each([
      ['list of her category', () => ({ action: 'list', page: 1, categoryId: aliceCategory })],
      ['move her file', () => ({ action: 'fileEdit', categoryId: 0, id: String(aliceFile.id) })],
      [
        'move his file into her category',
        () => ({ action: 'fileEdit', categoryId: aliceCategory, id: '999999' }),
      ],
      ['delete her file', () => ({ action: 'fileDelete', id: String(aliceFile.id) })],
      [
        'rename her category',
        () => ({ action: 'categoryEdit', id: aliceCategory, pid: 0, title: 'mine now' }),
      ],
      [
        'add under her category',
        () => ({ action: 'categoryEdit', id: 0, pid: aliceCategory, title: 'intruder' }),
      ],
      ['delete her category', () => ({ action: 'categoryDelete', id: aliceCategory })],
      [
        'save her saved file',
        () => ({
          action: 'save',
          path: aliceFile.path,
          name: 'stolen.txt',
          size: 1500,
          categoryId: 0,
        }),
      ],
      [
        'save her unsaved upload',
        () => ({
          action: 'save',
          path: alicePending,
          name: 'stolen.txt',
          size: 1400,
          categoryId: 0,
        }),
      ],
    ])('%s fails and changes nothing', async (_name, body) => {
      const before = await snapshot();
      const answer = await bob.call(body());
      expect(answer.code).toBe(Code.Failure);
      expect(['id', 'pid', 'categoryId', 'path']).toContain(
        (answer.data as { field?: string } | null)?.field,
      );
      expect(await snapshot()).toEqual(before);
    });

    it('a mixed list of ids (his and hers) changes nothing either', async () => {
      const own = await bob.uploadAndSave({ name: 'bob.txt', data: textFile(1100, 'bob own') });
      const before = await snapshot();
      expect((await bob.call({ action: 'fileDelete', id: `${own.id},${aliceFile.id}` })).code).toBe(
        Code.Failure,
      );
      expect(
        (await bob.call({ action: 'fileEdit', categoryId: 0, id: `${own.id},${aliceFile.id}` }))
          .code,
      ).toBe(Code.Failure);
      expect(await snapshot()).toEqual(before);
    });

    it('the same content uploaded by both is stored once and survives one of them deleting it', async () => {
      const data = textFile(1600, 'shared content');
      const a = await alice.uploadAndSave({ name: 'a.txt', data });
      const b = await bob.uploadAndSave({ name: 'b.txt', data });
      expect(b.path).not.toBe(a.path);
      expect((await alice.call({ action: 'fileDelete', id: String(a.id) })).code).toBe(0);
      expect((await t.app.inject({ method: 'GET', url: a.path })).statusCode).toBe(404);
      const served = await t.app.inject({ method: 'GET', url: b.path });
      expect(served.statusCode).toBe(200);
      expect(md5Of(served.rawPayload)).toBe(md5Of(data));
      expect((await bob.call({ action: 'fileDelete', id: String(b.id) })).code).toBe(0);
      expect((await t.app.inject({ method: 'GET', url: b.path })).statusCode).toBe(404);
    });

    it('member files are not in the admin library, and admin files not in a member library', async () => {
      const admin = await adminClient();
      const adminFile = await admin.uploadAndSave({
        name: 'admin.txt',
        data: textFile(1000, 'admin only'),
      });
      expect((await list(admin)).records.map((r) => r.id)).not.toContain(aliceFile.id);
      expect((await list(alice)).records.map((r) => r.id)).not.toContain(adminFile.id);
      expect((await admin.call({ action: 'fileDelete', id: String(aliceFile.id) })).code).toBe(
        Code.Failure,
      );
    });
  });

  describe('admin rules', () => {
    it('all admins share one admin library', async () => {
      const first = await adminClient();
      const second = await adminClient();
      const file = await first.uploadAndSave({
        name: 'shared-admin.txt',
        data: textFile(1000, 'shared admin'),
      });
      expect((await list(second)).records.map((r) => r.id)).toContain(file.id);
    });

    it('view, upload, edit and delete each open their own actions', async () => {
      const founder = await adminClient();
      const file = await founder.uploadAndSave({
        name: 'ruled.txt',
        data: textFile(1000, 'ruled'),
      });
      const category = await addCategory(founder, 'Ruled');
      const calls: Record<string, Record<string, unknown>> = {
        config: { action: 'config' },
        category: { action: 'category' },
        list: { action: 'list', page: 1, categoryId: 0 },
        init: { action: 'init', name: 'x.txt', size: 10, md5: 'c'.repeat(32) },
        save: { action: 'save', path: file.path, name: 'again.txt', size: 1000, categoryId: 0 },
        fileEdit: { action: 'fileEdit', categoryId: category, id: String(file.id) },
        categoryEdit: { action: 'categoryEdit', id: category, pid: 0, title: 'Ruled 2' },
        fileDelete: { action: 'fileDelete', id: '99999999' },
        categoryDelete: { action: 'categoryDelete', id: 99999999 },
      };
      const opens: Record<string, string[]> = {
        'data/file_manager/view': ['config', 'category', 'list'],
        'data/file_manager/upload': ['init', 'save'],
        'data/file_manager/edit': ['fileEdit', 'categoryEdit'],
        'data/file_manager/delete': ['fileDelete', 'categoryDelete'],
      };
      for (const [rule, allowed] of Object.entries(opens)) {
        const admin = await adminClient([rule]);
        for (const [action, body] of Object.entries(calls)) {
          const answer = await admin.call(body);
          if (allowed.includes(action))
            expect
              .soft(answer.code, `${rule} ${action}: ${answer.msg}`)
              .not.toBe(Code.NoPermission);
          else
            expect
              .soft(answer, `${rule} ${action}`)
              .toMatchObject({ code: Code.NoPermission, data: { error: 'http.noPermission' } });
        }
      }
      const viewer = await adminClient(['data/file_manager/view']);
      const chunk = await viewer.sendChunk({ name: 'x.txt', data: textFile(100) }, 0);
      expect(chunk.json).toMatchObject({
        code: Code.NoPermission,
        msg: '没有权限',
        data: { error: 'http.noPermission' },
      });
      const nobody = await adminClient(['member']);
      expect(await nobody.call({ action: 'list', page: 1, categoryId: 0 })).toMatchObject({
        code: Code.NoPermission,
      });
    });

    it('anonymous callers hear "not logged in" on both areas', async () => {
      for (const url of ['/member_data/file_manager/file', '/admin/data/file_manager/file']) {
        const { json } = await t.post(url, { action: 'list', page: 1, categoryId: 0 });
        expect(json).toMatchObject({
          code: Code.NotLoggedIn,
          msg: '请先登录',
          data: { error: 'http.notLoggedIn' },
        });
      }
    });
  });

  describe('serving uploaded files', () => {
    let c: FileClient;
    beforeAll(async () => {
      c = await memberClient();
    });

    it.each([
      [
        'page.html',
        '<!doctype html><script>alert(document.cookie)</script>',
        'text/html; charset=utf-8',
      ],
      [
        'logo.svg',
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        'image/svg+xml',
      ],
    ])('%s is an attachment with nosniff and a sandboxing CSP', async (name, content, type) => {
      const file = await c.uploadAndSave({ name, data: Buffer.from(content) });
      const res = await t.app.inject({ method: 'GET', url: file.path });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.body).toBe(content);
    });

    it('text renders inline, and a path cannot be re-typed to another extension', async () => {
      const file = await c.uploadAndSave({ name: 'plain.txt', data: textFile(900, 'plain') });
      const res = await t.app.inject({ method: 'GET', url: file.path });
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('inline');
      expect(res.headers['cache-control']).toBe('public, no-cache');
      const retyped = await t.app.inject({
        method: 'GET',
        url: file.path.replace(/\.txt$/, '.html'),
      });
      expect(retyped.statusCode).toBe(404);
      const etag = res.headers.etag;
      const again = await t.app.inject({
        method: 'GET',
        url: file.path,
        headers: { 'if-none-match': String(etag) },
      });
      expect(again.statusCode).toBe(304);
    });

    it('audio and video answer byte ranges', async () => {
      const data = wavFile(1);
      const audio = new FileClient(t, c.as, 'audio');
      const file = await audio.uploadAndSave({ name: 'tone.wav', data });
      const full = await t.app.inject({ method: 'GET', url: file.path });
      expect(full.headers['accept-ranges']).toBe('bytes');
      expect(full.headers['content-type']).toBe('audio/wav');
      const part = await t.app.inject({
        method: 'GET',
        url: file.path,
        headers: { range: 'bytes=100-199' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-199/${data.length}`);
      expect(part.rawPayload.equals(data.subarray(100, 200))).toBe(true);
      const tail = await t.app.inject({
        method: 'GET',
        url: file.path,
        headers: { range: 'bytes=-10' },
      });
      expect(tail.rawPayload.equals(data.subarray(data.length - 10))).toBe(true);
      const beyond = await t.app.inject({
        method: 'GET',
        url: file.path,
        headers: { range: `bytes=${data.length}-` },
      });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${data.length}`);
    });

    it('image thumbnails are made once, cached in storage and listed with the file', async () => {
      const image = new FileClient(t, c.as, 'image');
      const data = await sharp({
        create: { width: 800, height: 600, channels: 3, background: '#3366aa' },
      })
        .jpeg()
        .toBuffer();
      const file = await image.uploadAndSave({ name: 'photo.jpg', data });
      expect(file.thumbnail).toMatch(
        /\/data\/thumb\/image\/[0-9a-f]{24}\/photo\.jpg\.webp\?v=\d+$/,
      );
      const listed = (await list(image)).records.find((r) => r.id === file.id);
      expect(listed?.thumbnail).toBe(file.thumbnail);
      const thumbUrl = new URL(file.thumbnail ?? '').pathname;
      const res = await t.app.inject({ method: 'GET', url: thumbUrl });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 240, 180]);
      // Kept next to the blob, under the blob's name.
      const blob = await filesDb(t.db)
        .selectFrom('fileBlobs')
        .select('fileBlobs.name')
        .innerJoin('files', 'files.blobId', 'fileBlobs.id')
        .where('files.id', '=', file.id)
        .executeTakeFirstOrThrow();
      expect(
        existsSync(
          join(t.dataDir, 'storage', 'thumbs', blob.name.slice(0, 2), `${blob.name}-240.webp`),
        ),
      ).toBe(true);
      const text = await c.uploadAndSave({
        name: 'not-image.txt',
        data: textFile(500, 'no thumb'),
      });
      expect(text.thumbnail).toBeUndefined();
      for (const fakeThumb of [
        `${text.path.replace('/data/file/', '/data/thumb/file/')}.webp`,
        text.path.replace('/data/file/', '/data/thumb/file/').replace('.txt', '.webp'),
      ]) {
        expect((await t.app.inject({ method: 'GET', url: fakeThumb })).statusCode).toBe(404);
      }
    });

    it('each upload gets a random address of its own ending with its name; content addresses reveal nothing', async () => {
      const data = textFile(1200, 'the same report');
      const mine = await c.uploadAndSave({ name: 'Quarterly report (final).txt', data });
      const again = await c.uploadAndSave({ name: '季度 报告.txt', data });
      const theirs = await (await memberClient()).uploadAndSave({ name: 'intro.txt', data });
      expect(mine.path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/Quarterly-report-final\.txt$/);
      expect(again.path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/季度-报告\.txt$/);
      expect(theirs.path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/intro\.txt$/);
      expect(new Set([mine.path, again.path, theirs.path]).size).toBe(3);
      // Storage keeps one copy: de-duplication stays inside it.
      const blobs = new Set(
        (
          await filesDb(t.db)
            .selectFrom('files')
            .select('blobId')
            .where('id', 'in', [mine.id, again.id, theirs.id])
            .execute()
        ).map((r) => r.blobId),
      );
      expect(blobs.size).toBe(1);
      for (const path of [mine.path, encodeURI(again.path), theirs.path]) {
        const res = await t.app.inject({ method: 'GET', url: path });
        expect(res.statusCode, path).toBe(200);
        expect(res.rawPayload.equals(data)).toBe(true);
      }
      // Anyone holding the document cannot ask whether some member stored it.
      const sha = createHash('sha256').update(data).digest('hex');
      const probe = await t.app.inject({
        method: 'GET',
        url: `/data/file/${sha.slice(0, 2)}/${sha}.txt`,
      });
      expect(probe.statusCode).toBe(404);
    });

    it('files stored at a content address before addresses were random keep being served', async () => {
      const data = await sharp({
        create: { width: 300, height: 200, channels: 3, background: '#aa3366' },
      })
        .png()
        .toBuffer();
      const image = new FileClient(t, c.as, 'image');
      const file = await image.uploadAndSave({ name: 'old.png', data });
      const sha = createHash('sha256').update(data).digest('hex');
      const legacy = `/data/image/${sha.slice(0, 2)}/${sha}.png`;
      await filesDb(t.db)
        .updateTable('files')
        .set({ path: legacy })
        .where('id', '=', file.id)
        .execute();
      const listed = (await list(image)).records.find((r) => r.id === file.id);
      expect(listed?.path).toBe(legacy);
      expect(new URL(listed?.thumbnail ?? '').pathname).toBe(
        `/data/thumb/image/${sha.slice(0, 2)}/${sha}.webp`,
      );
      const served = await t.app.inject({ method: 'GET', url: legacy });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(data)).toBe(true);
      const thumb = await t.app.inject({
        method: 'GET',
        url: new URL(listed?.thumbnail ?? '').pathname,
      });
      expect(thumb.statusCode).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');
      // The address it had before is nobody's any more.
      expect((await t.app.inject({ method: 'GET', url: file.path })).statusCode).toBe(404);
    });

    it('a download saves under the file’s own name', async () => {
      const file = await c.uploadAndSave({
        name: '合同 v2.html',
        data: Buffer.from('<p>contract</p>'),
      });
      const res = await t.app.inject({ method: 'GET', url: encodeURI(file.path) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="__-v2.html"; filename*=UTF-8''${encodeURIComponent('合同-v2.html')}`,
      );
    });

    it('unknown paths are 404', async () => {
      for (const url of [
        '/data/file/00/nothing.txt',
        `/data/file/00/${'0'.repeat(64)}.txt`,
        '/data/../../etc/passwd',
      ]) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
    });
  });
});
