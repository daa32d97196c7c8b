import type { Library } from '@atrium/shared/contract/files';
import { blobColumns, type BlobRow, type FilesDb, type Owner } from './library.tables';

/**
 * How many blobs with an upload's MD5 and size its bytes are compared with before it is stored as
 * a blob of its own (more than one only after crafted MD5 collisions).
 */
const blobCandidates = 4;

/**
 * Stored blobs and their reference counts (Kysely only, dialect-neutral): found by content for
 * uploads, by public path for serving, collected once nothing refers to them.
 */
export class BlobsRepository {
  constructor(readonly db: FilesDb) {}

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

  /** Drops the blob reference each row held; the blobs to collect once committed. */
  async dropRefsOf(rows: readonly { blobId: number }[]): Promise<number[]> {
    const perBlob = new Map<number, number>();
    for (const row of rows) perBlob.set(row.blobId, (perBlob.get(row.blobId) ?? 0) + 1);
    for (const [blobId, count] of perBlob) await this.dropBlobRefs(blobId, count);
    return [...perBlob.keys()];
  }
}
