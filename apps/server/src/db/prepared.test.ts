import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds, type TestDb } from '../testing/db';
import type { Db } from './index';
import { prepare } from './prepared';

const T = Date.UTC(2026, 10, 21, 9, 0, 0);

const byUsername = prepare((db: Db, username: string) =>
  db.selectFrom('admins').select(['id', 'username', 'createdAt']).where('username', '=', username),
);
/** One argument used twice, and a constant that must stay as built. */
const nameOrNick = prepare((db: Db, text: string, limit: number) =>
  db
    .selectFrom('admins')
    .select('username')
    .where((eb) => eb.or([eb('username', '=', text), eb('nickname', '=', text)]))
    .where('disabled', '=', 0)
    .orderBy('id')
    .limit(limit),
);

describe.each(testDbKinds)('prepared queries on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await t.db
      .insertInto('admins')
      .values([
        {
          username: 'ann',
          passwordHash: 'h',
          nickname: 'shared',
          avatar: '',
          isFounder: 0,
          disabled: 0,
          createdAt: T,
          updatedAt: T,
        },
        {
          username: 'bob',
          passwordHash: 'h',
          nickname: 'shared',
          avatar: '',
          isFounder: 0,
          disabled: 0,
          createdAt: T + 1,
          updatedAt: T,
        },
        {
          username: 'cid',
          passwordHash: 'h',
          nickname: 'shared',
          avatar: '',
          isFounder: 0,
          disabled: 1,
          createdAt: T + 2,
          updatedAt: T,
        },
      ])
      .execute();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('binds new values on every run, with the plugins applied to the rows', async () => {
    expect(await byUsername.executeTakeFirst(t.db, 'ann')).toEqual({
      id: expect.any(Number),
      username: 'ann',
      createdAt: T,
    });
    expect(await byUsername.executeTakeFirst(t.db, 'bob')).toMatchObject({
      username: 'bob',
      createdAt: T + 1,
    });
    expect(await byUsername.executeTakeFirst(t.db, 'nobody')).toBeUndefined();
  });

  it('fills every use of an argument and keeps the constants', async () => {
    expect(await nameOrNick.execute(t.db, 'shared', 10)).toEqual([
      { username: 'ann' },
      { username: 'bob' },
    ]);
    expect(await nameOrNick.execute(t.db, 'shared', 1)).toEqual([{ username: 'ann' }]);
    expect(await nameOrNick.execute(t.db, 'cid', 10)).toEqual([]);
  });

  it('runs inside a transaction and sees its writes', async () => {
    await t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('admins')
        .set({ nickname: 'renamed' })
        .where('username', '=', 'bob')
        .execute();
      expect(await nameOrNick.execute(trx, 'renamed', 10)).toEqual([{ username: 'bob' }]);
      await trx
        .updateTable('admins')
        .set({ nickname: 'shared' })
        .where('username', '=', 'bob')
        .execute();
    });
  });

  it('refuses a builder that does not put an argument into the query', async () => {
    const ignoresArgument = prepare((db: Db, _unused: string) =>
      db.selectFrom('admins').select('id'),
    );
    await expect(ignoresArgument.execute(t.db, 'x')).rejects.toThrow(/uses 0 of its 1 arguments/);
  });
});
