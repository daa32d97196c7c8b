import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds, type TestDb } from '../../../testing/db';
import { TransactionGroup } from '../../../db/transaction-group';
import { chatDb, type ChatDb, type ChatSchema } from '../chat.tables';
import { bumpCounters, DeferredBumps } from './counter-bumps';

describe.each(testDbKinds)('budget counter bumps on %s', (kind) => {
  let testDb: TestDb | undefined;
  afterEach(async () => {
    await testDb?.cleanup();
    testDb = undefined;
  });

  /** The counters of members 1 and 2 and rooms 5 and 6 on 2026-11-28 and its month, at zero. */
  async function setUp(): Promise<ChatDb> {
    testDb = await createTestDb(kind);
    const db = chatDb(testDb.db);
    const rows = [];
    for (const [scope, scopeId] of [
      ['member', 1],
      ['member', 2],
      ['room', 5],
      ['room', 6],
    ] as const)
      for (const period of ['d:2026-11-28', 'm:2026-11']) rows.push({ scope, scopeId, period });
    await db.insertInto('chatBudgetCounters').values(rows).execute();
    return db;
  }
  const counters = async (db: ChatDb) =>
    Object.fromEntries(
      (await db.selectFrom('chatBudgetCounters').selectAll().execute()).map((r) => [
        `${r.scope}:${r.scopeId}:${r.period}`,
        [Number(r.messages), Number(r.tokens), Number(r.cost), Number(r.reservedTokens)],
      ]),
    );
  const day = '2026-11-28';

  it('adds each bump to its member and room, day and month; bumps of one pair summed', async () => {
    const db = await setUp();
    await db.transaction().execute((trx) =>
      bumpCounters(trx, [
        { memberId: 1, roomId: 5, day, by: { tokens: 10, cost: 3, reservedTokens: -20 } },
        { memberId: 2, roomId: 5, day, by: { messages: 1, reservedTokens: 7 } },
        { memberId: 1, roomId: 5, day, by: { tokens: 5, reservedTokens: -4 } },
      ]),
    );
    expect(await counters(db)).toEqual({
      'member:1:d:2026-11-28': [0, 15, 3, -24],
      'member:1:m:2026-11': [0, 15, 3, -24],
      'member:2:d:2026-11-28': [1, 0, 0, 7],
      'member:2:m:2026-11': [1, 0, 0, 7],
      'room:5:d:2026-11-28': [1, 15, 3, -17],
      'room:5:m:2026-11': [1, 15, 3, -17],
      'room:6:d:2026-11-28': [0, 0, 0, 0],
      'room:6:m:2026-11': [0, 0, 0, 0],
    });
  });

  it('applies the bumps a group of transactions left once, before the commit; a failed group leaves none', async () => {
    const db = await setUp();
    const deferred = new DeferredBumps();
    const group = new TransactionGroup<ChatSchema>(db, {
      closing: (trx) => deferred.apply(trx),
    });
    // What each work sees of the room's tokens, after the works before it in its transaction.
    const seen: (number | undefined)[] = [];
    const end = (memberId: number, tokens: number, fail = false) =>
      group.run(async (trx) => {
        deferred.of(trx).push({ memberId, roomId: 6, day, by: { tokens } });
        seen.push((await counters(trx))['room:6:d:2026-11-28']?.[1]);
        if (fail) throw new Error('this answer cannot end');
      });
    const results = await Promise.allSettled([end(1, 2), end(2, 3), end(1, 4, true)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    // Together, none is added before the closing; the group failed as a whole and each ran
    // alone, in order: the failed one's bump went with its transaction, and the group's too.
    expect(seen).toEqual([0, 0, 0, 0, 2, 5]);
    const after = await counters(db);
    expect(after['room:6:d:2026-11-28']?.[1]).toBe(5);
    expect(after['member:1:m:2026-11']?.[1]).toBe(2);
    expect(after['member:2:m:2026-11']?.[1]).toBe(3);
  });
});
