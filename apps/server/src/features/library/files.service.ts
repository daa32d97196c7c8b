import {
  type FileRecord,
  type FileUse,
  type ListRequest,
  type ListResponse,
  type SaveRequest,
  type SavedFile,
  type UsageResponse,
} from '@atrium/shared/contract/files';
import { parseDataPath } from '@atrium/shared/data-paths';
import { ApiError, message } from '../../http/envelope';
import { CategoriesRepository } from './categories.repository';
import { ownCategory } from './categories.service';
import { countByCategory } from './category-counts';
import { FileRefs, type UsageRow } from './file-refs';
import { twinOf } from './file-twins';
import { toRecord } from './file-row';
import { describeUsage, labelUsage } from './file-usage';
import { FileList, type RefsOf, type UsedFile } from './file-list';
import { FilesRepository, type LibraryScope } from './files.repository';
import { LibraryAnswers } from './library-answers';
import type { FileRow, FilesDb } from './library.tables';
import { TrashRepository } from './trash.repository';
import {
  about,
  checkFileName,
  libraryName,
  uploadRecords,
  type UploadService,
} from './upload/index';

/**
 * The files of one owner's library: listing, filing uploads, moves, deletes to the trash,
 * replacing content and where each is used (SPEC 7.3, DESIGN 6).
 */
export class FilesService {
  private readonly repo: FilesRepository;

  private readonly listing: FileList;

  constructor(
    private readonly db: FilesDb,
    private readonly uploads: UploadService,
    private readonly clock: () => number = Date.now,
    answers = new LibraryAnswers(),
  ) {
    this.repo = new FilesRepository(db);
    this.listing = new FileList(db, answers, (scope, rows, refsOf) =>
      this.placesOf(scope, rows, refsOf),
    );
  }

  /** Whether name search has its trigram index (PostgreSQL without pg_trgm has none). */
  nameSearchIndexed(): Promise<boolean> {
    return this.repo.nameSearchIndexed();
  }

  /** Whether the owner's library holds a file at this path (an avatar must be one's own image). */
  owns(scope: LibraryScope, path: string): Promise<boolean> {
    return this.repo.ownsPath(scope, path);
  }

  /** A page of the library (SPEC 7.3 `list`), from memory while the library is unchanged. */
  list(scope: LibraryScope, request: ListRequest, origin: string): Promise<ListResponse> {
    return this.listing.list(scope, request, origin);
  }

  /** Files an upload of the caller into its library (SPEC 7.3 `save`), or answers its twin. */
  async save(scope: LibraryScope, request: SaveRequest, origin: string): Promise<SavedFile> {
    const parsed = parseDataPath(request.path);
    if (!parsed) throw new ApiError(about('path', message('files.notUploadPath')));
    if (parsed.library !== scope.library) {
      throw new ApiError(
        about('path', message('files.pathOtherLibrary', { library: libraryName(parsed.library) })),
      );
    }
    const { name } = checkFileName(request.name);
    const row = await this.db.transaction().execute(async (trx) => {
      const repo = new FilesRepository(trx);
      const cats = new CategoriesRepository(trx);
      const uploadRepo = uploadRecords(trx);
      await ownCategory(cats, scope, request.categoryId, 'categoryId');
      const pending = await uploadRepo.unsaved.ownedUploads(
        scope.owner,
        scope.library,
        request.path,
      );
      const blobId = pending[0]?.blobId ?? (await repo.blobIdAt(scope, request.path));
      if (blobId === undefined) throw new ApiError(about('path', message('files.noSuchUpload')));
      const twin = await twinOf(trx, uploadRepo, scope, { ...request, name, blobId }, pending);
      // The upload at this very path filed already: the save sent again (its answer lost on the
      // way, or refused as the database blinked after it committed) answers what it filed.
      if (twin) return twin.path === request.path ? twin : { ...twin, existing: true as const };
      const blob = await trx
        .selectFrom('fileBlobs')
        .select(['id', 'size'])
        .where('id', '=', blobId)
        .executeTakeFirst();
      if (!blob || !(await uploadRepo.blobs.addBlobRefs(blob.id, 1)))
        throw new ApiError(about('path', message('files.uploadPathExpired')));
      // Places may hold the path already (an upload is usable before it is filed).
      const useCount = await new FileRefs(trx).countAt(request.path);
      const file = await repo.insertFile({
        ownerType: scope.owner.type,
        ownerId: scope.owner.id,
        library: scope.library,
        categoryId: request.categoryId,
        blobId: blob.id,
        name,
        ext: parsed.ext,
        size: blob.size,
        path: request.path,
        createdAt: this.clock(),
        useCount,
      });
      if (pending.length > 0) {
        await uploadRepo.unsaved.deleteUploads(pending.map((u) => u.id));
        await uploadRepo.blobs.dropBlobRefs(blob.id, pending.length);
        // Uploaded again while it sat in the trash (init gave it its old address back): restored.
        await uploadRepo.blobs.dropRefsOf(
          await new TrashRepository(trx).takeTrashed(scope, { path: request.path }),
        );
      }
      await cats.addToCategoryCount(request.categoryId, 1);
      await repo.addToLibraryCount(scope, 1, useCount === 0 ? 1 : 0);
      return file;
    });
    return 'existing' in row ? { ...toRecord(row, origin), existing: true } : toRecord(row, origin);
  }

  /** The caller's files with these ids, or a failure when any is not theirs. */
  private async ownFiles(
    repo: FilesRepository,
    scope: LibraryScope,
    ids: readonly number[],
  ): Promise<FileRow[]> {
    const unique = [...new Set(ids)];
    const rows = await repo.filesByIds(scope, unique);
    if (rows.length !== unique.length) {
      const found = new Set(rows.map((r) => r.id));
      const missing = unique.find((id) => !found.has(id));
      throw new ApiError(about('id', message('files.fileMissing', { id: missing ?? 0 })));
    }
    return rows;
  }

  async fileEdit(scope: LibraryScope, ids: readonly number[], categoryId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new FilesRepository(trx);
      const cats = new CategoriesRepository(trx);
      await ownCategory(cats, scope, categoryId, 'categoryId');
      const rows = await this.ownFiles(repo, scope, ids);
      for (const [from, count] of countByCategory(rows))
        await cats.addToCategoryCount(from, -count);
      await cats.addToCategoryCount(categoryId, rows.length);
      await repo.moveFiles(
        rows.map((r) => r.id),
        categoryId,
      );
    });
  }

  /**
   * Deletes the caller's files. A file in use is deleted in the admin library only with `confirm`
   * (the refusal names the places); a member's own places (avatar, chat images) don't stop it,
   * and a chat image keeps showing (its reference keeps the bytes).
   */
  async fileDelete(scope: LibraryScope, ids: readonly number[], confirm = false): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new FilesRepository(trx);
      const cats = new CategoriesRepository(trx);
      const refs = new FileRefs(trx);
      // Locked first: a place pointing at one of them meanwhile is either seen here or refused.
      const used = await refs.lockForDelete([...new Set(ids)]);
      const rows = await this.ownFiles(repo, scope, ids);
      if (used.length > 0 && scope.owner.type === 'admin' && !confirm) {
        const places = await describeUsage(trx, used);
        throw new ApiError(about('confirm', message('files.inUse', { places })));
      }
      // To the trash: the row keeps its blob reference until the trash lets it go.
      await new TrashRepository(trx).trashFiles(rows, this.clock());
      await this.uncount(repo, cats, scope, rows);
    });
  }

  /** Takes files that left the library (to the trash) out of its counters. */
  private async uncount(
    repo: FilesRepository,
    cats: CategoriesRepository,
    scope: LibraryScope,
    rows: readonly FileRow[],
  ): Promise<void> {
    for (const [from, count] of countByCategory(rows)) await cats.addToCategoryCount(from, -count);
    await repo.addToLibraryCount(
      scope,
      -rows.length,
      -rows.filter((row) => row.useCount === 0).length,
    );
  }

  /**
   * Replace in place (issue 17): the caller's file `id` takes the bytes of the caller's upload at
   * `path` and keeps its own address, so every place using it shows the new content. Every file
   * of the caller at that address changes with it (one address, one content), chat images that
   * keep their own reference keep the new bytes, and the old blob goes when nothing holds it.
   */
  async replace(
    scope: LibraryScope,
    id: number,
    path: string,
    origin: string,
  ): Promise<FileRecord> {
    const parsed = parseDataPath(path);
    if (!parsed || parsed.library !== scope.library)
      throw new ApiError(about('path', message('files.notLibraryUpload')));
    const { row, dropped } = await this.db.transaction().execute(async (trx) => {
      const repo = new FilesRepository(trx);
      const uploadRepo = uploadRecords(trx);
      const [file] = await repo.lockFiles(scope, [id]);
      if (!file) throw new ApiError(about('id', message('files.fileMissing', { id })));
      if (parsed.ext !== file.ext) {
        throw new ApiError(about('path', message('files.replaceSameType', { ext: file.ext })));
      }
      const pending = await uploadRepo.unsaved.ownedUploads(scope.owner, scope.library, path);
      const blobId = pending[0]?.blobId;
      if (blobId === undefined) throw new ApiError(about('path', message('files.noSuchUpload')));
      const blob = await trx
        .selectFrom('fileBlobs')
        .select(['id', 'size'])
        .where('id', '=', blobId)
        .executeTakeFirstOrThrow();
      const atAddress = await repo.lockFilesAt(scope, file.path);
      const kept = await new FileRefs(trx).keptAt(file.path);
      const holders = atAddress.length + kept.length;
      // The new blob's references: the files and keeping places at the address take it, the
      // pending uploads let go of it.
      await uploadRepo.blobs.addBlobRefs(blob.id, holders);
      await repo.setBlob(
        atAddress.map((f) => f.id),
        blob.id,
        blob.size,
      );
      await new FileRefs(trx).keepBlobAt(file.path, blob.id);
      await uploadRepo.unsaved.deleteUploads(pending.map((u) => u.id));
      await uploadRepo.blobs.dropBlobRefs(blob.id, pending.length);
      const old = [...atAddress.map((f) => f.blobId), ...kept.map((r) => r.blobId)];
      const dropped = await uploadRepo.blobs.dropRefsOf(
        old.filter((b) => b !== blob.id).map((b) => ({ blobId: b })),
      );
      // Back to one reference each for those that were already on the new blob.
      const already = old.filter((b) => b === blob.id).length;
      if (already > 0) await uploadRepo.blobs.dropBlobRefs(blob.id, already);
      const [row] = await repo.filesByIds(scope, [id]);
      if (!row) throw new ApiError(about('id', message('files.fileMissing', { id })));
      return { row, dropped };
    });
    for (const blobId of dropped) await this.uploads.collectBlob(blobId);
    return toRecord(row, origin);
  }

  /** Where each of these files of the caller is used, as far as the caller may see (issue 17). */
  async usage(scope: LibraryScope, ids: readonly number[]): Promise<UsageResponse> {
    const rows = await this.ownFiles(this.repo, scope, ids);
    const places = await this.placesOf(scope, rows);
    return rows.map((row) => {
      const { useCount, usedBy, hidden } = places.get(row.id) ?? {
        useCount: 0,
        usedBy: [],
        hidden: 0,
      };
      return { id: row.id, useCount, usedBy, hidden };
    });
  }

  /**
   * The places using each of these files, named, as far as the caller may see (the others are
   * counted as hidden); files nothing uses are not asked about.
   */
  async placesOf(
    scope: LibraryScope,
    rows: readonly UsedFile[],
    refsOf: RefsOf = (paths) => new FileRefs(this.db).usageOf(paths),
  ): Promise<Map<number, { useCount: number; usedBy: FileUse[]; hidden: number }>> {
    const used = rows.filter((row) => row.useCount > 0);
    const refs = await refsOf([...new Set(used.map((row) => row.path))]);
    const visible = (ref: UsageRow) =>
      scope.owner.type === 'admin' || ref.memberId === scope.owner.id;
    const uses = refs.length ? await labelUsage(this.db, refs.filter(visible)) : new Map();
    const places = new Map<number, { useCount: number; usedBy: FileUse[]; hidden: number }>();
    for (const row of rows) {
      const all = refs.filter((ref) => ref.path === row.path);
      const usedBy = all.flatMap((ref) => uses.get(ref) ?? []);
      places.set(row.id, { useCount: all.length, usedBy, hidden: all.length - usedBy.length });
    }
    return places;
  }
}
