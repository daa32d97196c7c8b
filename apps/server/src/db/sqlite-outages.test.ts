import { join } from 'node:path';
import { Code, outageOfEnvelope } from '@atrium/shared';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Issue 26, point 3 on SQLite: a full database answers "the disk is full" and keeps what it held;
 * a database locked past the busy timeout is a retryable refusal. Both are driven for real: a
 * page limit (`PRAGMA max_page_count`) and a second connection holding the write lock.
 */
describe('SQLite full or locked', () => {
  let t: TestApp;
  let as: { area: 'admin'; token: string };

  beforeAll(async () => {
    t = await createTestApp();
    as = { area: 'admin', token: (await t.loginAdmin()).token };
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const saveRoom = (title: string, description = '') =>
    t.post('/admin/api/aigc/chat_room/save', { id: 0, title, description }, as);
  const roomTitles = async () => {
    const listed = await t.post<{ records: { title: string }[] }>(
      '/admin/api/aigc/chat_room/list',
      {},
      as,
    );
    expect(listed.json.code, listed.json.msg).toBe(Code.Success);
    return listed.json.data.records.map((room) => room.title);
  };
  const pragma = async (name: string) =>
    Number(
      Object.values(
        (await sql.raw(`pragma ${name}`).execute(t.db)).rows[0] as object,
      )[0] as unknown,
    );

  it('a full database answers "the disk is full" (retryable), changes nothing and keeps what it held', async () => {
    expect((await saveRoom('Kept')).json.code).toBe(Code.Success);
    const pages = await pragma('page_count');
    // No page more than it has: a long description needs tens of new pages.
    await sql.raw(`pragma max_page_count = ${String(pages)}`).execute(t.db);
    expect(await pragma('freelist_count')).toBeLessThan(10);

    const full = await saveRoom('Too big', `<p>${'x'.repeat(90_000)}</p>`);
    expect(full.res.statusCode).toBe(200);
    expect(full.json).toMatchObject({
      code: Code.Unavailable,
      msg: '磁盘已满：请告诉管理员，然后重试',
      data: { error: 'unavailable.diskFull' },
    });
    expect(outageOfEnvelope(full.json)).toBe('diskFull');

    expect(await roomTitles()).toEqual(['Kept']);
    const check = (await sql.raw('pragma integrity_check').execute(t.db)).rows;
    expect(check).toEqual([{ integrityCheck: 'ok' }]);

    // Room again (the administrator freed space): the same call succeeds.
    await sql.raw('pragma max_page_count = 1073741823').execute(t.db);
    expect((await saveRoom('Too big', `<p>${'x'.repeat(90_000)}</p>`)).json.code).toBe(
      Code.Success,
    );
    expect((await roomTitles()).sort()).toEqual(['Kept', 'Too big']);
  });

  it('a database locked by another process past the busy timeout is a retryable database refusal', async () => {
    // A short wait: better-sqlite3 waits synchronously.
    await sql.raw('pragma busy_timeout = 100').execute(t.db);
    const other = new SQLite(join(t.dataDir, 'atrium.db'));
    try {
      other.exec('begin immediate');
      const locked = await saveRoom('While locked');
      expect(locked.res.statusCode).toBe(200);
      expect(locked.json.code).toBe(Code.Unavailable);
      expect(outageOfEnvelope(locked.json)).toBe('database');
      expect(locked.json.msg).toContain('请几秒后重试');
      other.exec('rollback');
      expect((await saveRoom('While locked')).json.code).toBe(Code.Success);
    } finally {
      other.close();
    }
  });
});
