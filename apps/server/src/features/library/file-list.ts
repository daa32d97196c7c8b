import {
  fileListPageSize,
  listCountPagesAhead,
  unusedCountPagesAhead,
  type FileUse,
  type ListRequest,
  type ListResponse,
} from '@atrium/shared/contract/files';
import { CategoriesRepository } from './categories.repository';
import { ownCategory } from './categories.service';
import { FileRefs, type UsageRow } from './file-refs';
import { toRecord } from './file-row';
import {
  FilesRepository,
  type FileFilter,
  type FileSort,
  type LibraryCounts,
  type LibraryScope,
  type SubtreeScope,
  type SubtreeStats,
} from './files.repository';
import { libraryKey, type LibraryAnswers } from './library-answers';
import type { CategoryRow, FileRow, FilesDb } from './library.tables';

/** What looking up the places using a file needs of it. */
export type UsedFile = Pick<FileRow, 'id' | 'path' | 'useCount'>;

/** The references to some paths (FileRefs.usageOf), read afresh or from the kept answers. */
export type RefsOf = (paths: readonly string[]) => Promise<UsageRow[]>;

/** The places using each of some files, as far as the caller may see (FilesService.placesOf). */
export type PlacesOf = (
  scope: LibraryScope,
  files: readonly UsedFile[],
  refsOf?: RefsOf,
) => Promise<Map<number, { useCount: number; usedBy: FileUse[]; hidden: number }>>;

/** Reads through the kept answers of one library at the generation read for this request. */
type Kept = <V>(key: string, compute: () => Promise<V>, weigh?: (value: V) => number) => Promise<V>;

/** A kept page weighs one per record, plus one (LibraryAnswers). */
const pageWeight = (page: ListResponse) => 1 + page.records.length;

/** The order a `list` asks for: newest first unless it names another (name: A to Z first). */
function listSort(request: ListRequest): FileSort {
  const key = request.sort ?? 'date';
  return { key, desc: request.order ? request.order === 'desc' : key !== 'name' };
}

/**
 * The file library's `list` (SPEC 7.3, issue 17), answered from memory while the library's
 * generation is unchanged (issue 32, LibraryAnswers): each request reads the library's counts and
 * generation (one indexed row); a page, a category and a subtree's counts already computed at that
 * generation are not read again. For "used by", the references to the page's files are kept
 * too (every reference added or dropped changes its file's use count, which bumps the generation),
 * but the places' names are looked up afresh each time (they change without the library: a room
 * renamed).
 */
export class FileList {
  private readonly repo: FilesRepository;
  private readonly cats: CategoriesRepository;
  private readonly refs: FileRefs;

  constructor(
    db: FilesDb,
    private readonly answers: LibraryAnswers,
    private readonly placesOf: PlacesOf,
  ) {
    this.repo = new FilesRepository(db);
    this.cats = new CategoriesRepository(db);
    this.refs = new FileRefs(db);
  }

  async list(scope: LibraryScope, request: ListRequest, origin: string): Promise<ListResponse> {
    const counts = await this.repo.libraryCounts(scope);
    const library = libraryKey(scope);
    const kept: Kept = (key, compute, weigh) =>
      this.answers.get(library, counts.generation, key, compute, weigh);
    const { withUsage, ...asked } = request;
    const page = await kept<ListResponse>(
      `list:${origin}:${JSON.stringify(asked)}`,
      async () => {
        const found = await this.page(scope, asked, counts, kept);
        return {
          records: found.rows.map((row) => toRecord(row, origin)),
          total: found.total,
          pageSize: fileListPageSize,
          page: request.page,
          ...(found.capped ? { totalCapped: true as const } : {}),
        };
      },
      pageWeight,
    );
    if (!withUsage) return page;
    const places = await this.placesOf(
      scope,
      page.records.map((r) => ({ id: r.id, path: r.path, useCount: r.useCount ?? 0 })),
      (paths) =>
        kept(
          `refs:${JSON.stringify(paths)}`,
          () => this.refs.usageOf(paths),
          (refs) => 1 + refs.length,
        ),
    );
    return {
      ...page,
      records: page.records.map((record) => {
        const used = places.get(record.id);
        return used ? { ...record, usedBy: used.usedBy, usedByHidden: used.hidden } : record;
      }),
    };
  }

  /** One page of the library's files as `request` asks for it, and how many there are. */
  private async page(
    scope: LibraryScope,
    request: ListRequest,
    counts: LibraryCounts,
    kept: Kept,
  ): Promise<{ rows: FileRow[]; total: number; capped: boolean }> {
    const pageSize = fileListPageSize;
    const offset = (request.page - 1) * pageSize;
    const category = await kept<CategoryRow | undefined>(`category:${request.categoryId}`, () =>
      ownCategory(this.cats, scope, request.categoryId, 'categoryId'),
    );
    const subtreeOf = (path: string) =>
      kept<SubtreeStats>(`subtree:${path}`, () => this.cats.subtree(scope, path));
    const filter: FileFilter = {
      keywords: request.keywords ? request.keywords : undefined,
      types: request.types,
      from: request.from,
      to: request.to,
    };
    const narrowed =
      filter.keywords !== undefined ||
      filter.types !== undefined ||
      filter.from !== undefined ||
      filter.to !== undefined;
    const sort = listSort(request);
    const newestFirst = sort.key === 'date' && sort.desc;
    /**
     * A subtree to list in, dense when walking the library in order finds `wanted` of its files
     * sooner (about wanted x library / subtree rows) than gathering the whole subtree would.
     */
    const subtreeScope = async (
      path: string,
      wanted: number,
    ): Promise<SubtreeScope & SubtreeStats> => {
      const subtree = await subtreeOf(path);
      const size = Math.max(1, subtree.fileCount);
      return { ...subtree, path, dense: (wanted * counts.files) / size < size };
    };
    if (narrowed || (request.unused && category)) {
      // Matches are counted only some pages ahead: a search never counts a million rows.
      const ahead = narrowed ? listCountPagesAhead : unusedCountPagesAhead;
      const countUpTo = offset + pageSize * ahead + 1;
      const subtree = category ? await subtreeScope(category.path, countUpTo) : undefined;
      const found = await this.repo.find(
        scope,
        { ...filter, unused: request.unused },
        sort,
        subtree,
        { offset, limit: pageSize, countUpTo },
      );
      const matched = found.matched ?? 0;
      const capped = matched >= countUpTo;
      return { rows: found.rows, total: capped ? countUpTo - 1 : matched, capped };
    }
    const paged = async (total: number, rows: () => Promise<FileRow[]>) => ({
      rows: offset < total ? await rows() : [],
      total,
      capped: false,
    });
    if (!category && !newestFirst) {
      return paged(request.unused ? counts.unused : counts.files, async () => {
        const page = { offset, limit: pageSize };
        return (await this.repo.find(scope, { unused: request.unused }, sort, undefined, page))
          .rows;
      });
    }
    if (request.unused)
      return paged(counts.unused, () => this.repo.pageUnused(scope, offset, pageSize));
    if (!category) return paged(counts.files, () => this.repo.pageAll(scope, offset, pageSize));
    if (!newestFirst) {
      const subtree = await subtreeScope(category.path, offset + pageSize);
      return paged(
        subtree.fileCount,
        async () =>
          (await this.repo.find(scope, {}, sort, subtree, { offset, limit: pageSize })).rows,
      );
    }
    const subtree = await subtreeScope(category.path, offset + pageSize);
    return paged(subtree.fileCount, () =>
      subtree.categories === 1
        ? this.repo.pageCategory(scope, category.id, offset, pageSize)
        : this.repo.pageCategories(scope, category.path, offset, pageSize, subtree.dense),
    );
  }
}
