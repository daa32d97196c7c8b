import { sql } from 'kysely';
import { chunkColumns, type ChunkRow, type FilesDb } from '../library.tables';

/** The chunks a session holds and the claims of the requests writing them (Kysely only). */
export class ChunksRepository {
  constructor(readonly db: FilesDb) {}

  listChunks(sessionId: number): Promise<ChunkRow[]> {
    return this.db
      .selectFrom('uploadChunks')
      .select(chunkColumns)
      .where('sessionId', '=', sessionId)
      .orderBy('idx')
      .execute();
  }

  getChunk(sessionId: number, idx: number): Promise<ChunkRow | undefined> {
    return this.db
      .selectFrom('uploadChunks')
      .select(chunkColumns)
      .where('sessionId', '=', sessionId)
      .where('idx', '=', idx)
      .executeTakeFirst();
  }

  /**
   * Records a chunk as held and gives up the claim `token` made on it, together: undefined
   * (nothing recorded) when that claim is no longer there (taken over, or its session is gone).
   * Touches the session, counts the chunk, and saves the running MD5 `save` carries where the
   * saved one still stands at `save.from`. Run it in a transaction: one durable write per chunk.
   */
  async recordClaimedChunk(
    row: ChunkRow,
    token: string,
    now: number,
    save: { from: number; to: number; state: string } | undefined,
  ): Promise<{ heldChunks: number; contiguousChunks: number; hashedChunks: number } | undefined> {
    // The session row first: it orders the records of one session (PostgreSQL locks the row
    // until commit), so each one below sees every chunk recorded before it.
    const claimed = await this.db
      .updateTable('uploadSessions')
      .set({ updatedAt: now })
      .where('id', '=', row.sessionId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('uploadChunkClaims')
            .select('uploadChunkClaims.idx')
            .where('uploadChunkClaims.sessionId', '=', row.sessionId)
            .where('uploadChunkClaims.idx', '=', row.idx)
            .where('uploadChunkClaims.token', '=', token),
        ),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return undefined;
    await this.db
      .deleteFrom('uploadChunkClaims')
      .where('sessionId', '=', row.sessionId)
      .where('idx', '=', row.idx)
      .execute();
    const inserted = await this.db
      .insertInto('uploadChunks')
      .values(row)
      .onConflict((oc) => oc.columns(['sessionId', 'idx']).doNothing())
      .executeTakeFirst();
    const added = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    if (!added) {
      // Held already (a claim taken over from a writer that recorded it): these bytes replace it.
      await this.db
        .updateTable('uploadChunks')
        .set({ size: row.size, etag: row.etag, instanceId: row.instanceId })
        .where('sessionId', '=', row.sessionId)
        .where('idx', '=', row.idx)
        .execute();
    }
    return this.db
      .updateTable('uploadSessions')
      .set((eb) => ({
        heldChunks: eb('heldChunks', '+', added ? 1 : 0),
        // Past chunk `idx`: the first held chunk from it on whose successor is not held, plus 1.
        contiguousChunks: eb
          .case()
          .when('contiguousChunks', '=', row.idx)
          .then(
            eb
              .selectFrom('uploadChunks as c')
              .select((c) => sql<number>`${c.fn.min('c.idx')} + 1`.as('end'))
              .where('c.sessionId', '=', row.sessionId)
              .where('c.idx', '>=', row.idx)
              .where((c) =>
                c.not(
                  c.exists(
                    c
                      .selectFrom('uploadChunks as d')
                      .select('d.idx')
                      .whereRef('d.sessionId', '=', 'c.sessionId')
                      .where('d.idx', '=', sql<number>`${sql.ref('c.idx')} + 1`),
                  ),
                ),
              ),
          )
          .else(eb.ref('contiguousChunks'))
          .end(),
        ...(save
          ? {
              md5State: eb
                .case()
                .when('hashedChunks', '=', save.from)
                .then(save.state)
                .else(eb.ref('md5State'))
                .end(),
              hashedChunks: eb
                .case()
                .when('hashedChunks', '=', save.from)
                .then(save.to)
                .else(eb.ref('hashedChunks'))
                .end(),
            }
          : {}),
      }))
      .where('id', '=', row.sessionId)
      .returning(['heldChunks', 'contiguousChunks', 'hashedChunks'])
      .executeTakeFirst();
  }

  /**
   * Claims chunk `idx` of a session for writing under `token` for `instanceId`; whether this call
   * got it. Another claim holds it while its instance's heartbeat is at or after `aliveSince` and
   * it was made after `staleBefore` (the bound for a claim whose release was lost in a live
   * instance). One row per chunk, so instances agree.
   */
  async claimChunk(
    sessionId: number,
    idx: number,
    claim: { token: string; instanceId: string },
    now: number,
    aliveSince: number,
    staleBefore: number,
  ): Promise<boolean> {
    const { token, instanceId } = claim;
    const row = await this.db
      .insertInto('uploadChunkClaims')
      .values({ sessionId, idx, token, instanceId, claimedAt: now })
      .onConflict((oc) =>
        oc
          .columns(['sessionId', 'idx'])
          .doUpdateSet({ token, instanceId, claimedAt: now })
          .where((eb) =>
            eb.or([
              eb('uploadChunkClaims.claimedAt', '<', staleBefore),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('instances')
                    .select('instances.id')
                    .whereRef('instances.id', '=', 'uploadChunkClaims.instanceId')
                    .where('instances.heartbeatAt', '>=', aliveSince),
                ),
              ),
            ]),
          ),
      )
      .returning('token')
      .executeTakeFirst();
    return row?.token === token;
  }

  /** Gives up a claim made with `token` (a claim taken over since is left alone). */
  async releaseChunkClaim(sessionId: number, idx: number, token: string): Promise<void> {
    await this.db
      .deleteFrom('uploadChunkClaims')
      .where('sessionId', '=', sessionId)
      .where('idx', '=', idx)
      .where('token', '=', token)
      .execute();
  }

  async deleteChunks(sessionId: number, indexes: readonly number[]): Promise<void> {
    if (indexes.length === 0) return;
    await this.db
      .deleteFrom('uploadChunks')
      .where('sessionId', '=', sessionId)
      .where('idx', 'in', indexes)
      .execute();
  }
}
