import type { DashboardStats } from '@atrium/shared/contract/dashboard';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { FileClient, textFile, useUploadConfig } from '../library/library.testing';

describe.each(testDbKinds)('dashboard on %s', (kind) => {
  const DAY = 86_400_000;

  let t: TestApp;
  let founder: string;

  /** The test clock starts on 2026-11-21 09:00 UTC. */
  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);

    const first = await t.loginMember({ username: 'early_bird' });
    const files = new FileClient(t, { area: 'member', token: first.token }, 'file');
    await files.uploadAndSave({ name: 'one.txt', data: textFile(2000, 'one') });
    await new FileClient(t, { area: 'member', token: first.token }, 'image').uploadAndSave({
      name: 'pixel.png',
      data: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    });

    t.clock.advance(2 * DAY);
    const later = await t.loginMember({ username: 'late_one' });
    await t.createMember({ username: 'late_two' });
    await new FileClient(t, { area: 'member', token: later.token }, 'file').uploadAndSave({
      name: 'two.txt',
      data: textFile(3000, 'two'),
    });
    founder = (await t.loginAdmin()).token;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const stats = (body: Record<string, unknown> = {}) =>
    t
      .post<DashboardStats>('/admin/api/dashboard/stats', body, { area: 'admin', token: founder })
      .then((r) => r.json.data);

  describe('dashboard', () => {
    it('counts members, admins, files and bytes per library', async () => {
      const data = await stats();
      expect(data.counts).toMatchObject({
        members: 3,
        admins: 1,
        files: 3,
        storageBytes: 5000 + 70,
      });
      expect(data.storageByLibrary).toEqual([
        { library: 'image', files: 1, bytes: 70 },
        { library: 'file', files: 2, bytes: 5000 },
        { library: 'video', files: 0, bytes: 0 },
        { library: 'audio', files: 0, bytes: 0 },
      ]);
    });

    it('gives one entry per day, zero-filled, ending today in the viewer’s time zone', async () => {
      const utc = await stats({ days: 7 });
      expect(utc.signupsPerDay.map((d) => d.date)).toEqual([
        '2026-11-17',
        '2026-11-18',
        '2026-11-19',
        '2026-11-20',
        '2026-11-21',
        '2026-11-22',
        '2026-11-23',
      ]);
      expect(utc.signupsPerDay.map((d) => d.count)).toEqual([0, 0, 0, 0, 1, 0, 2]);
      expect(utc.uploadsPerDay.map((d) => d.count)).toEqual([0, 0, 0, 0, 2, 0, 1]);

      // 09:00 UTC is 23:00 the evening before in UTC-10.
      const honolulu = await stats({ days: 7, utcOffsetMinutes: -600 });
      expect(honolulu.signupsPerDay.at(-1)).toEqual({ date: '2026-11-22', count: 2 });
      expect(honolulu.signupsPerDay.at(-3)).toEqual({ date: '2026-11-20', count: 1 });
    });

    it('counts rooms and today’s messages only while their tables exist', async () => {
      const tables =
        kind === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master
              where type = 'table' and name in ('chat_rooms', 'chat_messages')`.execute(t.db)
          : await sql<{ name: string }>`select table_name as name from information_schema.tables
              where table_schema = current_schema()
              and table_name in ('chat_rooms', 'chat_messages')`.execute(t.db);
      const present = new Set(tables.rows.map((r) => r.name));
      const before = await stats();
      expect(before.counts.rooms).toBe(present.has('chat_rooms') ? 0 : null);
      expect(before.counts.messagesToday).toBe(present.has('chat_messages') ? 0 : null);

      const cascade = kind === 'postgres' ? sql`cascade` : sql``;
      await sql`drop table if exists chat_messages ${cascade}`.execute(t.db);
      const after = await stats();
      expect(after.counts.messagesToday).toBeNull();
      expect(after.counts.members).toBe(3);
    });
  });
});
