import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '../testing/db';
import { directReadsOf } from './direct-reads';
import type { Db } from './index';
import { prepare } from './prepared';

const T = Date.UTC(2026, 10, 29, 9, 0, 0);

const byNickname = prepare((db: Db, nickname: string) =>
  db
    .selectFrom('admins')
    .select(['id', 'username', 'isFounder', 'createdAt'])
    .where('nickname', '=', nickname)
    .orderBy('id'),
);

const admin = (username: string, nickname: string) => ({
  username,
  passwordHash: 'h',
  nickname,
  avatar: '',
  isFounder: 0,
  disabled: 0,
  createdAt: T,
  updatedAt: T,
});

/** Resolves once `promise` has settled or `ms` passed: whether it settled. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.finally(() => (settled = true)).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

describe('direct reads of prepared queries (SQLite)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('sqlite');
    await t.db
      .insertInto('admins')
      .values([admin('ann', 'team'), admin('bob', 'team')])
      .execute();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("answers a read on the database itself, with the rows Kysely's path gives", async () => {
    const reads = directReadsOf(t.db);
    if (!reads) throw new Error('a SQLite database reads directly');
    const read = vi.spyOn(reads, 'read');
    const direct = await byNickname.execute(t.db, 'team');
    expect(read).toHaveLastReturnedWith(direct);
    read.mockRestore();
    const viaKysely = await t.db
      .selectFrom('admins')
      .select(['id', 'username', 'isFounder', 'createdAt'])
      .where('nickname', '=', 'team')
      .orderBy('id')
      .execute();
    expect(direct).toEqual(viaKysely);
    expect(direct.map((row) => Object.keys(row))).toEqual([
      ['id', 'username', 'isFounder', 'createdAt'],
      ['id', 'username', 'isFounder', 'createdAt'],
    ]);
  });

  it('is not offered to a transaction or to the database without its plugin', async () => {
    expect(directReadsOf(t.db.withoutPlugins() as unknown as Db)).toBeUndefined();
    await t.db
      .transaction()
      .execute(async (trx) => {
        expect(directReadsOf(trx)).toBeUndefined();
        // Inside its own transaction a read sees the transaction's writes (through Kysely).
        await trx.insertInto('admins').values(admin('own', 'inside')).execute();
        expect(await byNickname.execute(trx, 'inside')).toHaveLength(1);
        throw new Error('roll back');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'roll back') throw error;
      });
    expect(await byNickname.execute(t.db, 'inside')).toEqual([]);
  });

  /**
   * Opens a writer's transaction with `begin`, reads `nickname` from outside while it is open,
   * then lets the writer roll back: the read waits for the transaction (Kysely's one connection)
   * instead of reading inside it, and never sees the uncommitted row.
   */
  async function readWhileHeld(
    nickname: string,
    begin: (held: Promise<void>) => Promise<unknown>,
  ): Promise<void> {
    let finish!: () => void;
    const writer = begin(new Promise<void>((resolve) => (finish = resolve))).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const read = byNickname.execute(t.db, nickname);
    expect(await settlesWithin(read, 50)).toBe(false);
    finish();
    await writer;
    expect(await read).toEqual([]);
  }

  it("never reads another caller's uncommitted write while its transaction is open", async () => {
    await readWhileHeld('pending', (held) =>
      t.db.transaction().execute(async (trx) => {
        await trx.insertInto('admins').values(admin('dan', 'pending')).execute();
        await held;
        throw new Error('roll back');
      }),
    );
  });

  it('never reads inside a transaction begun by hand on the connection', async () => {
    await readWhileHeld('by hand', (held) =>
      t.db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        await conn.insertInto('admins').values(admin('eve', 'by hand')).execute();
        await held;
        await sql`rollback`.execute(conn);
      }),
    );
  });
});
