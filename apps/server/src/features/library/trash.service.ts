import { fileListPageSize, type TrashResponse } from '@atrium/shared/contract/files';
import { Limits } from '@atrium/shared';
import { ApiError, message } from '../../http/envelope';
import { BlobsRepository } from './blobs.repository';
import { countByCategory } from './category-counts';
import { FileRefs } from './file-refs';
import { toRecord } from './file-row';
import { CategoriesRepository } from './categories.repository';
import { FilesRepository, type LibraryScope } from './files.repository';
import type { FilesDb } from './library.tables';
import { TrashRepository } from './trash.repository';
import { about, type UploadService } from './upload/index';

const dayMs = 24 * 3_600_000;

/**
 * The trash of one owner's library (issue 17.3): what deleting files put there, listed with when
 * each goes for good, restored where it was, or purged (the blobs then go when unused).
 */
export class TrashService {
  constructor(
    private readonly db: FilesDb,
    private readonly uploads: UploadService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The trash, the latest deleted first, with when each file goes for good. */
  async trash(scope: LibraryScope, page: number, origin: string): Promise<TrashResponse> {
    const pageSize = fileListPageSize;
    const days = await this.trashDays();
    const keepMs = days * dayMs;
    const { rows, total } = await new TrashRepository(this.db).trashPage(
      scope,
      (page - 1) * pageSize,
      pageSize,
    );
    return {
      records: rows.map((row) => ({
        ...toRecord({ ...row, useCount: 0 }, origin),
        deletedAt: row.deletedAt,
        expiresAt: row.deletedAt + keepMs,
      })),
      total,
      pageSize,
      page,
      days,
    };
  }

  private async trashDays(): Promise<number> {
    return (await this.uploads.config()).trashDays ?? Limits.trashDays;
  }

  /**
   * Puts files of the trash back where they were (the library's root when their category is
   * gone), at the same address: places using them show them again.
   */
  async restore(scope: LibraryScope, ids: readonly number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new FilesRepository(trx);
      const cats = new CategoriesRepository(trx);
      const refs = new FileRefs(trx);
      const taken = await new TrashRepository(trx).takeTrashed(scope, [...new Set(ids)]);
      if (taken.length !== new Set(ids).size) {
        const found = new Set(taken.map((row) => row.id));
        const id = ids.find((one) => !found.has(one)) ?? 0;
        throw new ApiError(about('id', message('files.notInTrash', { id })));
      }
      const categories = new Set((await cats.listCategories(scope)).map((category) => category.id));
      const rows = [];
      for (const row of taken) {
        const categoryId = categories.has(row.categoryId) ? row.categoryId : 0;
        rows.push({ ...row, categoryId, useCount: await refs.countAt(row.path) });
      }
      await new TrashRepository(trx).restoreFiles(rows);
      for (const [to, count] of countByCategory(rows)) await cats.addToCategoryCount(to, count);
      await repo.addToLibraryCount(
        scope,
        rows.length,
        rows.filter((row) => row.useCount === 0).length,
      );
    });
  }

  /** Deletes files of the trash for good (every one with 'all'); their blobs go when unused. */
  async purge(scope: LibraryScope, ids: readonly number[] | 'all'): Promise<void> {
    const blobIds = await this.db.transaction().execute(async (trx) => {
      const taken = await new TrashRepository(trx).takeTrashed(
        scope,
        ids === 'all' ? 'all' : [...new Set(ids)],
      );
      if (ids !== 'all' && taken.length !== new Set(ids).size) {
        const found = new Set(taken.map((row) => row.id));
        const id = ids.find((one) => !found.has(one)) ?? 0;
        throw new ApiError(about('id', message('files.notInTrash', { id })));
      }
      return new BlobsRepository(trx).dropRefsOf(taken);
    });
    for (const blobId of blobIds) await this.uploads.collectBlob(blobId);
  }

  /** Deletes for good what has been in any trash longer than the setting allows; how many. */
  async purgeExpired(now: number = this.clock()): Promise<number> {
    const before = now - (await this.trashDays()) * dayMs;
    let purged = 0;
    for (;;) {
      const blobIds = await this.db.transaction().execute(async (trx) => {
        const taken = await new TrashRepository(trx).takeExpired(before, 100);
        purged += taken.length;
        return taken.length ? new BlobsRepository(trx).dropRefsOf(taken) : undefined;
      });
      if (!blobIds) return purged;
      for (const blobId of blobIds) await this.uploads.collectBlob(blobId);
    }
  }
}
