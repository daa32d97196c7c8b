import type { FileRow, FilesDb, TrashedRow } from './library.tables';
import type { LibraryScope } from './files.repository';
import { newestPathIn } from './file-listing.queries';

/**
 * The trash (issue 17.3): deleted files kept with their address and blob until they are
 * restored, purged, or older than the upload settings' trashDays (Kysely only, dialect-neutral).
 */
export class TrashRepository {
  constructor(readonly db: FilesDb) {}

  /** Moves files to the trash as they are, noting when. */
  async trashFiles(rows: readonly FileRow[], deletedAt: number): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('trashedFiles')
      .values(
        rows.map((row) => ({
          id: row.id,
          ownerType: row.ownerType,
          ownerId: row.ownerId,
          library: row.library,
          categoryId: row.categoryId,
          blobId: row.blobId,
          name: row.name,
          ext: row.ext,
          size: row.size,
          path: row.path,
          createdAt: row.createdAt,
          deletedAt,
        })),
      )
      .execute();
    await this.db
      .deleteFrom('files')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  }

  private trashed(scope: LibraryScope) {
    return this.db
      .selectFrom('trashedFiles')
      .where('ownerType', '=', scope.owner.type)
      .where('ownerId', '=', scope.owner.id)
      .where('library', '=', scope.library);
  }

  /** A page of the trash, the latest deleted first, with how many it holds. */
  async trashPage(
    scope: LibraryScope,
    offset: number,
    limit: number,
  ): Promise<{ rows: TrashedRow[]; total: number }> {
    const counted = await this.trashed(scope)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    const total = Number(counted?.n ?? 0);
    const rows =
      offset < total
        ? await this.trashed(scope)
            .selectAll()
            .orderBy('deletedAt', 'desc')
            .orderBy('id', 'desc')
            .limit(limit)
            .offset(offset)
            .execute()
        : [];
    return { rows, total };
  }

  /**
   * Takes files out of the owner's trash: these ids, all of them, or those at one address (an
   * upload saved again there: restored). Deleting first claims them, so two requests racing for
   * a file never both act on it. Answers the rows.
   */
  takeTrashed(
    scope: LibraryScope,
    which: readonly number[] | 'all' | { path: string },
  ): Promise<TrashedRow[]> {
    let query = this.db
      .deleteFrom('trashedFiles')
      .where('ownerType', '=', scope.owner.type)
      .where('ownerId', '=', scope.owner.id)
      .where('library', '=', scope.library);
    if (typeof which === 'object' && 'path' in which) query = query.where('path', '=', which.path);
    else if (which !== 'all') query = query.where('id', 'in', which);
    return query.returningAll().execute();
  }

  /** Takes up to `limit` files deleted before `before` out of every trash. */
  takeExpired(before: number, limit: number): Promise<TrashedRow[]> {
    return this.db
      .deleteFrom('trashedFiles')
      .where(
        'id',
        'in',
        this.db
          .selectFrom('trashedFiles')
          .select('id')
          .where('deletedAt', '<', before)
          .orderBy('deletedAt')
          .limit(limit),
      )
      .returningAll()
      .execute();
  }

  /** Puts trashed rows back as files, with their use counts as they are now. */
  async restoreFiles(rows: readonly (TrashedRow & { useCount: number })[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('files')
      .values(rows.map(({ deletedAt: _deleted, ...row }) => row))
      .execute();
  }

  /** The newest address of the owner's trashed files of this blob under this extension. */
  async newestPathOf(
    scope: LibraryScope,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    const owner = { ...scope.owner, library: scope.library };
    return newestPathIn(this.db, 'trashedFiles', owner, blobId, ext);
  }
}
