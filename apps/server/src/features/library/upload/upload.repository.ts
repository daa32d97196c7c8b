import type { Library } from '@atrium/shared/contract/files';
import { sql, type Insertable } from 'kysely';
import {
  blobColumns,
  chunkColumns,
  sessionColumns,
  uploadColumns,
  type BlobRow,
  type ChunkRow,
  type FilesDb,
  type Owner,
  type SessionRow,
  type UploadRow,
  type UploadSessionsTable,
  type UploadsTable,
} from '../library.tables';

export interface SessionKey {
  owner: Owner;
  library: Library;
  md5: string;
  size: number;
  name: string;
}

/**
 * How many blobs with an upload's MD5 and size its bytes are compared with before it is stored as
 * a blob of its own (more than one only after crafted MD5 collisions).
 */
const blobCandidates = 4;

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

/** Upload sessions, their chunks, finished uploads and blobs (Kysely only, dialect-neutral). */
export class UploadRepository {
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

  /**
   * Which of these blob names are in use: by a blob row, or by a session that verified its bytes
   * for them and is moving them there.
   */
  async blobNamesInUse(names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const blobs = await this.db
      .selectFrom('fileBlobs')
      .select('name')
      .where('name', 'in', names)
      .execute();
    const sessions = await this.db
      .selectFrom('uploadSessions')
      .select('verifiedBlob')
      .where('verifiedBlob', 'in', names)
      .execute();
    return new Set([
      ...blobs.map((r) => r.name),
      ...sessions.flatMap((r) => (r.verifiedBlob ? [r.verifiedBlob] : [])),
    ]);
  }

  expiredSessions(before: number, limit: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('uploadSessions')
      .select(sessionColumns)
      .where('updatedAt', '<', before)
      .limit(limit)
      .execute();
  }

  getBlob(id: number): Promise<BlobRow | undefined> {
    return this.db
      .selectFrom('fileBlobs')
      .select(blobColumns)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findBlobByName(name: string): Promise<BlobRow | undefined> {
    return this.db
      .selectFrom('fileBlobs')
      .select(blobColumns)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /**
   * Blobs in use stored from bytes with this MD5 and size as the client sent them: the candidates
   * an upload's bytes are compared with.
   */
  blobsLike(md5: string, sentSize: number): Promise<BlobRow[]> {
    return this.db
      .selectFrom('fileBlobs')
      .select(blobColumns)
      .where('md5', '=', md5)
      .where('sentSize', '=', sentSize)
      .where('refCount', '>', 0)
      .orderBy('id')
      .limit(blobCandidates)
      .execute();
  }

  /**
   * A blob stored from bytes with this MD5 and size as sent that the owner already holds in this
   * library under the same extension, through a library file or an unsaved upload ("instant
   * upload"). `stripped`: only a blob stored without (true) or with (false) its privacy metadata.
   */
  findOwnedBlob(
    owner: Owner,
    library: Library,
    ext: string,
    md5: string,
    sentSize: number,
    stripped?: boolean,
  ): Promise<BlobRow | undefined> {
    return this.db
      .selectFrom('fileBlobs')
      .select(blobColumns)
      .where('md5', '=', md5)
      .where('sentSize', '=', sentSize)
      .$if(stripped !== undefined, (q) => q.where('stripped', '=', stripped ? 1 : 0))
      .where('refCount', '>', 0)
      .where((eb) =>
        eb.or(
          // Filed, not filed yet, or in the owner's trash (uploading it again restores it: see
          // `trashedPathOf`).
          (['files', 'uploads', 'trashedFiles'] as const).map((table) =>
            eb.exists(
              eb
                .selectFrom(table)
                .select(`${table}.id`)
                .whereRef(`${table}.blobId`, '=', 'fileBlobs.id')
                .where(`${table}.ownerType`, '=', owner.type)
                .where(`${table}.ownerId`, '=', owner.id)
                .where(`${table}.library`, '=', library)
                .where(`${table}.ext`, '=', ext),
            ),
          ),
        ),
      )
      .limit(1)
      .executeTakeFirst();
  }

  /** Adds `by` references to a blob; false when it is gone (its last reference was dropped). */
  async addBlobRefs(blobId: number, by: number): Promise<boolean> {
    const result = await this.db
      .updateTable('fileBlobs')
      .set((eb) => ({ refCount: eb('refCount', '+', by) }))
      .where('id', '=', blobId)
      .where('refCount', '>', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async dropBlobRefs(blobId: number, by: number): Promise<void> {
    await this.db
      .updateTable('fileBlobs')
      .set((eb) => ({ refCount: eb('refCount', '-', by) }))
      .where('id', '=', blobId)
      .execute();
  }

  /** Records a new blob with one reference. */
  async insertBlob(row: Omit<BlobRow, 'id' | 'refCount'>): Promise<number> {
    const inserted = await this.db
      .insertInto('fileBlobs')
      .values({ ...row, refCount: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  unreferencedBlobs(limit: number): Promise<BlobRow[]> {
    return this.db
      .selectFrom('fileBlobs')
      .select(blobColumns)
      .where('refCount', '<=', 0)
      .limit(limit)
      .execute();
  }

  /** Deletes the blob row if it is still unreferenced; true when this call deleted it. */
  async deleteBlobIfUnreferenced(blobId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('fileBlobs')
      .where('id', '=', blobId)
      .where('refCount', '<=', 0)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async insertUpload(row: Insertable<UploadsTable>): Promise<void> {
    await this.db.insertInto('uploads').values(row).execute();
  }

  ownedUploads(owner: Owner, library: Library, path: string): Promise<UploadRow[]> {
    return this.db
      .selectFrom('uploads')
      .select(uploadColumns)
      .where('ownerType', '=', owner.type)
      .where('ownerId', '=', owner.id)
      .where('library', '=', library)
      .where('path', '=', path)
      .execute();
  }

  async deleteUploads(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('uploads').where('id', 'in', ids).execute();
  }

  expiredUploads(before: number, limit: number): Promise<UploadRow[]> {
    return this.db
      .selectFrom('uploads')
      .select(uploadColumns)
      .where('createdAt', '<', before)
      .limit(limit)
      .execute();
  }

  /** The blob behind a library file of this owner with the path, if there is one. */
  async ownsFilePath(
    owner: Owner,
    library: Library,
    path: string,
  ): Promise<{ blobId: number } | undefined> {
    return this.db
      .selectFrom('files')
      .select('blobId')
      .where('ownerType', '=', owner.type)
      .where('ownerId', '=', owner.id)
      .where('library', '=', library)
      .where('path', '=', path)
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The blob served at one of these public paths: some file or unsaved upload must be recorded
   * there, so an address nobody was given (another member's content address) finds nothing.
   */
  async blobAt(paths: readonly string[]): Promise<BlobRow | undefined> {
    if (paths.length === 0) return undefined;
    for (const table of ['files', 'uploads'] as const) {
      const row = await this.db
        .selectFrom(table)
        .innerJoin('fileBlobs', 'fileBlobs.id', `${table}.blobId`)
        .select(blobColumns.map((c) => `fileBlobs.${c}` as const))
        .where(`${table}.path`, 'in', paths)
        .where('fileBlobs.refCount', '>', 0)
        .limit(1)
        .executeTakeFirst();
      if (row) return row;
    }
    // A chat image whose file was deleted: its message's reference keeps the blob (issue 17).
    return this.db
      .selectFrom('fileRefs')
      .innerJoin('fileBlobs', 'fileBlobs.id', 'fileRefs.blobId')
      .select(blobColumns.map((c) => `fileBlobs.${c}` as const))
      .where('fileRefs.path', 'in', paths)
      .where('fileBlobs.refCount', '>', 0)
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The address of the owner's trashed file with this blob, when the owner keeps it nowhere else:
   * an upload of the same content gets it back (and `save` takes it out of the trash), so the
   * places that used it show it again instead of a duplicate appearing.
   */
  async trashedPathOf(
    owner: Owner,
    library: Library,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    if (await this.ownedPathOf(owner, library, blobId, ext)) return undefined;
    return this.newestPathIn('trashedFiles', owner, library, blobId, ext);
  }

  /** The newest address where the owner keeps this blob under this extension (upload or file). */
  async ownedPathOf(
    owner: Owner,
    library: Library,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    for (const table of ['uploads', 'files'] as const) {
      const path = await this.newestPathIn(table, owner, library, blobId, ext);
      if (path) return path;
    }
    return undefined;
  }

  /** The newest address in one table where the owner has this blob under this extension. */
  private async newestPathIn(
    table: 'uploads' | 'files' | 'trashedFiles',
    owner: Owner,
    library: Library,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    const row = await this.db
      .selectFrom(table)
      .select('path')
      .where('ownerType', '=', owner.type)
      .where('ownerId', '=', owner.id)
      .where('library', '=', library)
      .where('blobId', '=', blobId)
      .where('ext', '=', ext)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.path;
  }
}
