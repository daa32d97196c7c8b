import type { Library } from '@atrium/shared/contract/files';
import type { Insertable } from 'kysely';
import {
  sessionColumns,
  type FilesDb,
  type Owner,
  type SessionRow,
  type UploadSessionsTable,
} from '../library.tables';

export interface SessionKey {
  owner: Owner;
  library: Library;
  md5: string;
  size: number;
  name: string;
}

/** The columns that identify a session (its unique key), by value. */
export function sessionKeyColumns(key: SessionKey) {
  return {
    ownerType: key.owner.type,
    ownerId: key.owner.id,
    library: key.library,
    md5: key.md5,
    size: key.size,
    name: key.name,
  };
}

/**
 * Upload sessions (Kysely only, dialect-neutral): opened by init, touched by their chunks, leased
 * by the instance finishing them, with the running MD5 saved along the way.
 */
export class SessionsRepository {
  constructor(readonly db: FilesDb) {}

  findSession(key: SessionKey): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('uploadSessions')
      .select(sessionColumns)
      .where((eb) => eb.and(sessionKeyColumns(key)))
      .executeTakeFirst();
  }

  /**
   * The session of a chunk and whether it holds chunk `idx` already: the one read a chunk costs
   * (README "Uploads").
   */
  findSessionHolding(
    key: SessionKey,
    idx: number,
  ): Promise<(SessionRow & { holdsChunk: number }) | undefined> {
    return this.db
      .selectFrom('uploadSessions')
      .select(sessionColumns)
      .select((eb) =>
        eb
          .case()
          .when(
            eb.exists(
              eb
                .selectFrom('uploadChunks')
                .select('uploadChunks.idx')
                .whereRef('uploadChunks.sessionId', '=', 'uploadSessions.id')
                .where('uploadChunks.idx', '=', idx),
            ),
          )
          .then(1)
          .else(0)
          .end()
          .as('holdsChunk'),
      )
      .where((eb) => eb.and(sessionKeyColumns(key)))
      .executeTakeFirst();
  }

  getSession(id: number): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('uploadSessions')
      .select(sessionColumns)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Inserts a session; undefined when another request created the same key first. */
  async insertSession(row: Insertable<UploadSessionsTable>): Promise<number | undefined> {
    const inserted = await this.db
      .insertInto('uploadSessions')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['ownerType', 'ownerId', 'library', 'md5', 'size', 'name']).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  }

  async deleteSession(id: number): Promise<void> {
    await this.db.deleteFrom('uploadChunks').where('sessionId', '=', id).execute();
    await this.db.deleteFrom('uploadSessions').where('id', '=', id).execute();
  }

  /** Marks the session as in use now; what it holds, or undefined when it is gone. */
  touchSession(
    id: number,
    now: number,
  ): Promise<{ heldChunks: number; contiguousChunks: number } | undefined> {
    return this.db
      .updateTable('uploadSessions')
      .set({ updatedAt: now })
      .where('id', '=', id)
      .returning(['heldChunks', 'contiguousChunks'])
      .executeTakeFirst();
  }

  /**
   * Takes the lease to finish the upload for `instanceId`; false while another holds it. A lease
   * is held while its instance's heartbeat is at or after `aliveSince` and it was taken after
   * `staleBefore` (the bound for a lease whose release was lost in a live instance).
   */
  async claimFinish(
    id: number,
    instanceId: string,
    now: number,
    aliveSince: number,
    staleBefore: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('uploadSessions')
      .set({ status: 'finishing', instanceId, updatedAt: now })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'open'),
          eb('updatedAt', '<', staleBefore),
          eb.not(
            eb.exists(
              eb
                .selectFrom('instances')
                .select('instances.id')
                .whereRef('instances.id', '=', 'uploadSessions.instanceId')
                .where('instances.heartbeatAt', '>=', aliveSince),
            ),
          ),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives the finish lease back, unless another instance has taken it over since. */
  async releaseFinish(id: number, instanceId: string, now: number): Promise<void> {
    await this.db
      .updateTable('uploadSessions')
      .set({ status: 'open', instanceId: null, updatedAt: now })
      .where('id', '=', id)
      .where('status', '=', 'finishing')
      .where('instanceId', '=', instanceId)
      .execute();
  }

  /**
   * Records the blob the verified bytes go to; false when `instanceId` no longer holds the lease.
   */
  async saveVerified(id: number, instanceId: string, blobName: string): Promise<boolean> {
    const result = await this.db
      .updateTable('uploadSessions')
      .set({ verifiedBlob: blobName })
      .where('id', '=', id)
      .where('status', '=', 'finishing')
      .where('instanceId', '=', instanceId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Deletes a finished session while `instanceId` holds its finish lease: false (nothing deleted)
   * when the lease was taken over, so a finish that lost it cannot record the upload twice.
   */
  async deleteFinishedSession(id: number, instanceId: string): Promise<boolean> {
    // Its chunks and claims go with it (foreign keys cascade).
    const result = await this.db
      .deleteFrom('uploadSessions')
      .where('id', '=', id)
      .where('status', '=', 'finishing')
      .where('instanceId', '=', instanceId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Saves the running MD5 at `toChunks` chunks, only if nobody advanced it meanwhile. */
  async saveHashState(
    id: number,
    fromChunks: number,
    toChunks: number,
    md5State: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('uploadSessions')
      .set({ md5State, hashedChunks: toChunks })
      .where('id', '=', id)
      .where('hashedChunks', '=', fromChunks)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  expiredSessions(before: number, limit: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('uploadSessions')
      .select(sessionColumns)
      .where('updatedAt', '<', before)
      .limit(limit)
      .execute();
  }

  /** Which of these staging keys a session still uses. */
  async stagingInUse(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('uploadSessions')
      .select('stagingKey')
      .where('stagingKey', 'in', keys)
      .execute();
    return new Set(rows.map((r) => r.stagingKey));
  }
}
