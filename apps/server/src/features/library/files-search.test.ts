import { Code } from '@atrium/shared';
import {
  listCountPagesAhead,
  type FileRecord,
  type ListResponse,
} from '@atrium/shared/contract/files';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesDb } from './library.tables';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { FileRefs } from './file-refs';
import { FileClient, textFile, useUploadConfig, type Area } from './library.testing';

/** Files are filed this far apart (less than a session lasts without a request). */
const gap = 600_000;

/**
 * Bulk and search (issue 17): `list` sorted by date, name and size, filtered by type, date and
 * use, searched by name across the library; each alone and together, in both areas.
 */
describe.each(testDbKinds)('list: sort, filters and name search (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const names = (records: FileRecord[]) => records.map((r) => r.name);

  describe.each<Area>(['member', 'admin'])('%s area', (area) => {
    let c: FileClient;
    let top: number;
    let child: number;
    let other: number;
    /** Files by name, and when each was filed. */
    const filed = new Map<string, FileRecord>();

    const call = (body: Record<string, unknown>) =>
      c.call<ListResponse>({ action: 'list', page: 1, categoryId: 0, ...body });
    const list = async (body: Record<string, unknown>) => {
      const answer = await call(body);
      expect(answer.code, answer.msg).toBe(0);
      return answer.data;
    };
    /** A refusal about `field`, with its message key and, when given, its English text. */
    const refuse = async (
      body: Record<string, unknown>,
      field: string,
      error?: string,
      english?: string,
    ) => {
      const answer = await call(body);
      expect(answer.code).toBe(Code.Failure);
      expect(answer.data).toMatchObject({ field, ...(error ? { error } : {}) });
      if (english) {
        const asked = await c.in('en').call({ action: 'list', page: 1, categoryId: 0, ...body });
        expect(asked.msg).toBe(english);
      }
    };

    beforeAll(async () => {
      const login = area === 'member' ? await t.loginMember() : await t.loginAdmin();
      c = new FileClient(t, { area, ...login }, 'file');
      const category = async (title: string, pid = 0) => {
        const answer = await c.call<{ id: number }>({ action: 'categoryEdit', id: 0, pid, title });
        expect(answer.code, answer.msg).toBe(0);
        return answer.data.id;
      };
      top = await category('Work');
      child = await category('Invoices', top);
      other = await category('Holidays');
      // Filed ten minutes apart, in this order; sizes differ, as do types and categories.
      const files: [name: string, size: number, categoryId: number][] = [
        ['Invoice March.txt', 700, 0],
        ['invoice april.csv', 300, top],
        ['INVOICE_may.md', 900, child],
        ['receipt.txt', 100, child],
        ['季度报告 2026.txt', 500, other],
        ['旅行照片说明.md', 200, other],
        ['Budget ÉTÉ.json', 800, 0],
        ['100%_sure.txt', 400, top],
      ];
      for (const [name, size, categoryId] of files) {
        t.clock.advance(gap);
        const data = name.endsWith('.json')
          ? Buffer.from(JSON.stringify({ pad: 'x'.repeat(size - 10) }))
          : textFile(size, name);
        filed.set(name, await c.uploadAndSave({ name, data }, categoryId));
      }
    });

    it('sorts by date, name and size, both ways, at the root and in a subtree', async () => {
      const all = await list({ sort: 'date' });
      expect(names(all.records)).toEqual(names((await list({})).records));
      expect(names(all.records)[0]).toBe('100%_sure.txt');
      expect(names((await list({ sort: 'date', order: 'asc' })).records)[0]).toBe(
        'Invoice March.txt',
      );
      const byName = names((await list({ sort: 'name' })).records);
      expect(byName).toEqual([...byName].sort());
      expect(byName.slice(0, 3)).toEqual(['100%_sure.txt', 'Budget ÉTÉ.json', 'INVOICE_may.md']);
      expect(names((await list({ sort: 'name', order: 'desc' })).records)).toEqual(
        [...byName].reverse(),
      );
      const bySize = (await list({ sort: 'size' })).records.map((r) => r.size);
      expect(bySize).toEqual([...bySize].sort((a, b) => b - a));
      expect(bySize).toHaveLength(8);
      const smallFirst = (await list({ sort: 'size', order: 'asc' })).records;
      expect(names(smallFirst)[0]).toBe('receipt.txt');
      // A subtree (Work and Invoices below it), sorted and paged, with its exact total.
      const work = await list({ categoryId: top, sort: 'name' });
      expect(work.total).toBe(4);
      expect(work.totalCapped).toBeUndefined();
      expect(names(work.records)).toEqual([
        '100%_sure.txt',
        'INVOICE_may.md',
        'invoice april.csv',
        'receipt.txt',
      ]);
      expect(
        names((await list({ categoryId: child, sort: 'size', order: 'asc' })).records),
      ).toEqual(['receipt.txt', 'INVOICE_may.md']);
      // Pages follow the order.
      const second = await list({ sort: 'name', page: 2 });
      expect(second.total).toBe(8);
      expect(second.records).toEqual([]);
    });

    it('searches names in every category, any case, Chinese included; short words too', async () => {
      const everywhere = await list({ keywords: 'invoice' });
      expect(everywhere.total).toBe(3);
      expect(names(everywhere.records)).toEqual([
        'INVOICE_may.md',
        'invoice april.csv',
        'Invoice March.txt',
      ]);
      expect(names((await list({ keywords: 'VOICE A' })).records)).toEqual(['invoice april.csv']);
      expect(names((await list({ keywords: '季度报告' })).records)).toEqual(['季度报告 2026.txt']);
      expect(names((await list({ keywords: '照片' })).records)).toEqual(['旅行照片说明.md']);
      expect(names((await list({ keywords: 'ay' })).records)).toEqual(['INVOICE_may.md']);
      expect(names((await list({ keywords: 'été' })).records)).toEqual(['Budget ÉTÉ.json']);
      expect(names((await list({ keywords: '%_s' })).records)).toEqual(['100%_sure.txt']);
      expect(names((await list({ keywords: 'e"s' })).records)).toEqual([]);
      // Within a category and below it only.
      expect(names((await list({ keywords: 'invoice', categoryId: top })).records)).toEqual([
        'INVOICE_may.md',
        'invoice april.csv',
      ]);
      expect((await list({ keywords: 'invoice', categoryId: other })).total).toBe(0);
      // Search with another order sorts the matches.
      expect(names((await list({ keywords: 'invoice', sort: 'size' })).records)).toEqual([
        'INVOICE_may.md',
        'Invoice March.txt',
        'invoice april.csv',
      ]);
      expect(
        names((await list({ keywords: 'Invoice', sort: 'name', order: 'desc' })).records),
      ).toEqual(['invoice april.csv', 'Invoice March.txt', 'INVOICE_may.md']);
    });

    it('filters by type and by date, with each other, with search and with the unused filter', async () => {
      expect(names((await list({ types: ['md', 'CSV'] })).records)).toEqual([
        '旅行照片说明.md',
        'INVOICE_may.md',
        'invoice april.csv',
      ]);
      expect((await list({ types: ['pdf'] })).total).toBe(0);
      const april = filed.get('invoice april.csv')?.createdAt ?? 0;
      const report = filed.get('季度报告 2026.txt')?.createdAt ?? 0;
      const range = await list({ from: april, to: report });
      expect(names(range.records)).toEqual([
        '季度报告 2026.txt',
        'receipt.txt',
        'INVOICE_may.md',
        'invoice april.csv',
      ]);
      expect(names((await list({ from: report + 1 })).records)).toEqual([
        '100%_sure.txt',
        'Budget ÉTÉ.json',
        '旅行照片说明.md',
      ]);
      expect(names((await list({ to: april - 1 })).records)).toEqual(['Invoice March.txt']);
      expect(
        names((await list({ from: april, to: report, types: ['txt'], sort: 'name' })).records),
      ).toEqual(['receipt.txt', '季度报告 2026.txt']);
      expect(
        names((await list({ keywords: 'invoice', types: ['txt', 'md'], from: april })).records),
      ).toEqual(['INVOICE_may.md']);

      // One file in use: the unused filter leaves it out, alone and with the others.
      const used = filed.get('INVOICE_may.md');
      if (!used) throw new Error('not filed');
      await t.db
        .transaction()
        .execute((trx) =>
          new FileRefs(filesDb(trx)).hold(
            { kinds: ['adminAvatar'], holderId: 9000 + used.id, memberId: null },
            [{ kind: 'adminAvatar', path: used.path }],
          ),
        );
      expect((await list({ unused: true })).total).toBe(7);
      expect(names((await list({ unused: true, keywords: 'invoice' })).records)).toEqual([
        'invoice april.csv',
        'Invoice March.txt',
      ]);
      expect(names((await list({ unused: true, types: ['md'] })).records)).toEqual([
        '旅行照片说明.md',
      ]);
      expect(
        names((await list({ unused: true, categoryId: child, sort: 'name' })).records),
      ).toEqual(['receipt.txt']);
      const unusedByName = await list({ unused: true, sort: 'name', order: 'desc' });
      expect(unusedByName.total).toBe(7);
      expect(names(unusedByName.records)).not.toContain('INVOICE_may.md');
      expect(names(unusedByName.records)[0]).toBe('旅行照片说明.md');
    });

    it('refuses bad sorts, types and dates, naming the field', async () => {
      await refuse(
        { sort: 'colour' },
        'sort',
        'validation.oneOf',
        'Sort by must be one of: date, name, size',
      );
      await refuse({ sort: 'name', order: 'up' }, 'order', 'validation.oneOf');
      await refuse({ types: 'pdf' }, 'types');
      await refuse(
        { types: [] },
        'types',
        'files.typesEmpty',
        'Choose at least one type, or leave types out',
      );
      await refuse({ types: ['p.df'] }, 'types.0', 'files.extensionRule');
      await refuse(
        { types: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        'types',
        'validation.tooMany',
        'File types takes at most 20 items',
      );
      await refuse({ from: 'yesterday' }, 'from');
      await refuse({ from: 1.5 }, 'from');
      await refuse({ to: -1 }, 'to');
      await refuse(
        { from: 2000, to: 1000 },
        'from',
        'files.fromAfterTo',
        'The start must not be after the end',
      );
    });
  });

  it('a member searches only their own library', async () => {
    const a = new FileClient(t, { area: 'member', ...(await t.loginMember()) }, 'file');
    const b = new FileClient(t, { area: 'member', ...(await t.loginMember()) }, 'file');
    await a.uploadAndSave({ name: 'secret plan.txt', data: textFile(300, 'a') });
    await b.uploadAndSave({ name: 'public plan.txt', data: textFile(300, 'b') });
    const found = await b.call<ListResponse>({ action: 'list', keywords: 'plan' });
    expect(names(found.data.records)).toEqual(['public plan.txt']);
    const short = await b.call<ListResponse>({ action: 'list', keywords: 'se' });
    expect(names(short.data.records)).toEqual([]);
    // A long word looks up some of its trigrams: a name holding them out of order is not a match.
    await b.uploadAndSave({ name: 'ghi-def-abc.txt', data: textFile(300, 'c') });
    await b.uploadAndSave({ name: 'XABCDEFGHIX.txt', data: textFile(300, 'd') });
    const long = await b.call<ListResponse>({ action: 'list', keywords: 'abcDEFghi' });
    expect(names(long.data.records)).toEqual(['XABCDEFGHIX.txt']);
  });

  it('the index follows moves, deletes and renames', async () => {
    const c = new FileClient(t, { area: 'member', ...(await t.loginMember()) }, 'file');
    const answer = await c.call<{ id: number }>({
      action: 'categoryEdit',
      id: 0,
      pid: 0,
      title: 'Moved here',
    });
    const target = answer.data.id;
    const one = await c.uploadAndSave({ name: 'quarterly numbers.txt', data: textFile(300, '1') });
    const two = await c.uploadAndSave({ name: 'quarterly plan.txt', data: textFile(300, '2') });
    const search = async (keywords: string, categoryId = 0) =>
      names((await c.call<ListResponse>({ action: 'list', keywords, categoryId })).data.records);
    expect(await search('quarterly', target)).toEqual([]);
    expect((await c.call({ action: 'fileEdit', id: [one.id], categoryId: target })).code).toBe(0);
    expect(await search('quarterly', target)).toEqual(['quarterly numbers.txt']);
    expect(await search('quarterly')).toEqual(['quarterly plan.txt', 'quarterly numbers.txt']);
    expect((await c.call({ action: 'fileDelete', id: [two.id] })).code).toBe(0);
    expect(await search('quarterly')).toEqual(['quarterly numbers.txt']);
    expect(await search('plan')).toEqual([]);
    // Files are not renamed by any action today; a rename of the row keeps the index right.
    await filesDb(t.db)
      .updateTable('files')
      .set({ name: 'yearly totals.txt' })
      .where('id', '=', one.id)
      .execute();
    expect(await search('quarterly')).toEqual([]);
    expect(await search('YEARLY TOT')).toEqual(['yearly totals.txt']);
  });

  it('counts matches only some pages ahead, and says so', async () => {
    const c = new FileClient(t, { area: 'admin', ...(await t.loginAdmin()) }, 'audio');
    // Rows straight into the table: uploads of this many files would only slow the test.
    const db = filesDb(t.db);
    const blob = await db.selectFrom('fileBlobs').select('id').executeTakeFirstOrThrow();
    const count = 10 * (listCountPagesAhead + 3);
    for (let i = 0; i < count; i += 1)
      await db
        .insertInto('files')
        .values({
          ownerType: 'admin',
          ownerId: 0,
          library: 'audio',
          categoryId: 0,
          blobId: blob.id,
          name: `take ${i}.mp3`,
          ext: 'mp3',
          size: 1000 + i,
          path: `/data/audio/zz/take-${i}.mp3`,
          createdAt: 1_000 + i,
        })
        .execute();
    const page = async (body: Record<string, unknown>) =>
      (await c.call<ListResponse>({ action: 'list', categoryId: 0, ...body })).data;
    const first = await page({ keywords: 'take', page: 1 });
    expect(first.total).toBe(10 * listCountPagesAhead);
    expect(first.totalCapped).toBe(true);
    expect(names(first.records)[0]).toBe(`take ${count - 1}.mp3`);
    expect((await page({ keywords: 'take', page: 3 })).total).toBe(20 + 10 * listCountPagesAhead);
    const later = await page({ keywords: 'take', page: 4 });
    expect(later.total).toBe(count);
    expect(later.totalCapped).toBeUndefined();
    expect(names(later.records)[0]).toBe(`take ${count - 31}.mp3`);
    const one = await page({ keywords: `take ${count - 1}` });
    expect(one.total).toBe(1);
    expect(one.totalCapped).toBeUndefined();
    // The FTS rows agree with the table (SQLite's integrity check of external content).
    if (kind === 'sqlite')
      await sql`insert into files_fts (files_fts, rank) values ('integrity-check', 1)`.execute(
        t.db,
      );
  });
});
