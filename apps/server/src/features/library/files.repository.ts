import type { Library } from '@atrium/shared/contract/files';
import { PostgresAdapter, sql, type Insertable, type SqlBool } from 'kysely';
import { containsText, containsTextIlike, trigramIndex } from '../../db/search';
import {
  fileColumns,
  type FileRow,
  type FilesDb,
  type FilesTable,
  type Owner,
} from './library.tables';
import {
  ftsQuery,
  listing,
  newestPathIn,
  ownedCategories,
  ownedFiles,
  pathRange,
  trigramMinLength,
  type FtsTables,
} from './file-listing.queries';

/** A library's counters (libraryCounts). */
export interface LibraryCounts {
  files: number;
  unused: number;
  generation: number | undefined;
}

export interface LibraryScope {
  owner: Owner;
  library: Library;
}

export interface SubtreeStats {
  /** Categories in the subtree, the category itself included. */
  categories: number;
  fileCount: number;
}

export type FileSortKey = 'date' | 'name' | 'size';

/** An order of the list; `date` is the id order (ids are handed out as files are filed). */
export interface FileSort {
  key: FileSortKey;
  desc: boolean;
}

/** What a filtered `list` keeps (issue 17); absent fields keep everything. */
export interface FileFilter {
  keywords?: string | undefined;
  unused?: boolean | undefined;
  types?: readonly string[] | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** A category with what is below it; `dense`: it holds a large share of the library. */
export interface SubtreeScope {
  path: string;
  dense: boolean;
}

/** Categories, files and their counters of one owner's library (Kysely only, dialect-neutral). */
export class FilesRepository {
  private readonly postgres: boolean;

  constructor(readonly db: FilesDb) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  private categories(scope: LibraryScope) {
    return ownedCategories(this.db, scope.owner.type, scope.owner.id, scope.library);
  }

  private files(scope: LibraryScope) {
    return ownedFiles(this.db, scope.owner.type, scope.owner.id, scope.library);
  }

  /** Counts `by` more files in the library, `unused` more of them used by nothing. */
  async addToLibraryCount(scope: LibraryScope, by: number, unused = 0): Promise<void> {
    await this.db
      .insertInto('fileLibraryStats')
      .values({
        ownerType: scope.owner.type,
        ownerId: scope.owner.id,
        library: scope.library,
        fileCount: by,
        unusedCount: unused,
      })
      .onConflict((oc) =>
        oc.columns(['ownerType', 'ownerId', 'library']).doUpdateSet((eb) => ({
          fileCount: eb('fileLibraryStats.fileCount', '+', by),
          unusedCount: eb('fileLibraryStats.unusedCount', '+', unused),
        })),
      )
      .execute();
  }

  async libraryCount(scope: LibraryScope): Promise<number> {
    return (await this.libraryCounts(scope)).files;
  }

  /**
   * Files in the library, how many of them nothing uses, and the library's generation (what
   * answers kept in memory are tagged with; undefined while the library has no counts row).
   */
  async libraryCounts(scope: LibraryScope): Promise<LibraryCounts> {
    const row = await listing.libraryCount.executeTakeFirst(
      this.db,
      scope.owner.type,
      scope.owner.id,
      scope.library,
    );
    return {
      files: row?.fileCount ?? 0,
      unused: row?.unusedCount ?? 0,
      // bigint: a string on PostgreSQL.
      generation: row ? Number(row.generation) : undefined,
    };
  }

  /** Newest first among the library's unused files. */
  pageUnused(scope: LibraryScope, offset: number, limit: number): Promise<FileRow[]> {
    return listing.pageUnused.execute(
      this.db,
      scope.owner.type,
      scope.owner.id,
      scope.library,
      offset,
      limit,
    );
  }

  async insertFile(row: Insertable<FilesTable>): Promise<FileRow> {
    return this.db.insertInto('files').values(row).returning(fileColumns).executeTakeFirstOrThrow();
  }

  filesByIds(scope: LibraryScope, ids: readonly number[]): Promise<FileRow[]> {
    return this.files(scope).select(fileColumns).where('id', 'in', ids).execute();
  }

  async moveFiles(ids: readonly number[], categoryId: number): Promise<void> {
    await this.db.updateTable('files').set({ categoryId }).where('id', 'in', ids).execute();
  }

  async moveCategoryFiles(scope: LibraryScope, fromId: number, toId: number): Promise<number> {
    const result = await this.db
      .updateTable('files')
      .set({ categoryId: toId })
      .where('ownerType', '=', scope.owner.type)
      .where('ownerId', '=', scope.owner.id)
      .where('library', '=', scope.library)
      .where('categoryId', '=', fromId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async deleteFiles(ids: readonly number[]): Promise<void> {
    await this.db.deleteFrom('files').where('id', 'in', ids).execute();
  }

  /** Newest first over the whole library. */
  pageAll(scope: LibraryScope, offset: number, limit: number): Promise<FileRow[]> {
    return listing.pageAll.execute(
      this.db,
      scope.owner.type,
      scope.owner.id,
      scope.library,
      offset,
      limit,
    );
  }

  /** Newest first in one category, straight off the (owner, library, category, id) index. */
  pageCategory(
    scope: LibraryScope,
    categoryId: number,
    offset: number,
    limit: number,
  ): Promise<FileRow[]> {
    return listing.pageCategory.execute(
      this.db,
      scope.owner.type,
      scope.owner.id,
      scope.library,
      categoryId,
      offset,
      limit,
    );
  }

  /**
   * One page of the files matching `filter` in `sort` order, in the whole library or in a
   * subtree, and how many match up to `countUpTo` (the matches are counted only that far: a
   * count never walks the whole library). Name search uses the trigram index (FTS5 on SQLite,
   * pg_trgm on PostgreSQL): newest first, it walks the index's matches newest first and stops
   * after the page (and the count); another order sorts the matches. Two-character words and a
   * small subtree are matched with LIKE (no trigram to look up; the subtree is small).
   */
  async find(
    scope: LibraryScope,
    filter: FileFilter,
    sort: FileSort,
    subtree: SubtreeScope | undefined,
    page: { offset: number; limit: number; countUpTo?: number | undefined },
  ): Promise<{ rows: FileRow[]; matched: number | undefined }> {
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    const keywords = filter.keywords ? filter.keywords : undefined;
    const viaFts =
      !postgres &&
      keywords !== undefined &&
      [...keywords].length >= trigramMinLength &&
      (subtree?.dense ?? true);
    // The FTS index hands out its matches in rowid (id) order: newest first needs no sort.
    const streams = viaFts && sort.key === 'date';
    const db = this.db.withTables<FtsTables>();
    const joined = db.selectFrom('files').innerJoin('filesFts', 'filesFts.rowid', 'files.id');
    // Only the streaming query reads the FTS table; the others never name it.
    let query = streams ? joined : (db.selectFrom('files') as unknown as typeof joined);
    query = query
      .where('files.ownerType', '=', scope.owner.type)
      .where('files.ownerId', '=', scope.owner.id)
      .where('files.library', '=', scope.library);
    if (keywords !== undefined && viaFts) {
      const fts = ftsQuery(keywords);
      const match = sql<SqlBool>`files_fts match ${fts.match}`;
      query = streams
        ? query.where(match)
        : query.where(
            'files.id',
            'in',
            db.selectFrom('filesFts').select('filesFts.rowid').where(match),
          );
      if (fts.check !== undefined)
        query = query.where(sql<SqlBool>`instr(lower(${sql.ref('files.name')}), ${fts.check}) > 0`);
    } else if (keywords !== undefined) {
      query = query.where(
        postgres ? containsTextIlike('files.name', keywords) : containsText('files.name', keywords),
      );
    }
    // A small subtree is gathered through the category index and sorted: a unary plus (or
    // `|| ''`) keeps the planner off the other indexes, which would walk the library instead.
    const sparse = subtree !== undefined && !subtree.dense;
    const column = (name: 'files.useCount' | 'files.createdAt' | 'files.id' | 'files.size') =>
      sparse ? sql<number>`+${sql.ref(name)}` : sql<number>`${sql.ref(name)}`;
    if (filter.unused) query = query.where(column('files.useCount'), '=', 0);
    if (filter.types) query = query.where('files.ext', 'in', filter.types);
    if (filter.from !== undefined)
      query = query.where(column('files.createdAt'), '>=', filter.from);
    if (filter.to !== undefined) query = query.where(column('files.createdAt'), '<=', filter.to);
    if (subtree) {
      const { from, to } = pathRange(subtree.path);
      const inSubtree = this.categories(scope)
        .select('fileCategories.id')
        .where('fileCategories.path', '>=', from)
        .where('fileCategories.path', '<', to);
      // As in pageCategoriesQueries: unary plus keeps a dense subtree off the category index.
      query = subtree.dense
        ? query.where(sql<number>`+${sql.ref('files.categoryId')}`, 'in', inSubtree)
        : query.where('files.categoryId', 'in', inSubtree);
    }
    const direction = sort.desc ? 'desc' : 'asc';
    if (streams) query = query.orderBy('filesFts.rowid', direction);
    else if (sort.key === 'name')
      query = query.orderBy(
        sparse ? sql`${sql.ref('files.name')} || ''` : sql.ref('files.name'),
        direction,
      );
    else if (sort.key === 'size') query = query.orderBy(column('files.size'), direction);
    if (!streams) query = query.orderBy(column('files.id'), direction);

    if (page.countUpTo === undefined)
      return {
        rows: await query
          .select(fileColumns.map((name) => `files.${name}` as const))
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        matched: undefined,
      };
    // The matches are counted by id (read from the index that finds them, where one covers the
    // query), and only the page's rows are read whole: counting five pages ahead read 51-91
    // whole rows from the table before, for the 10 shown.
    const found = await query.select('files.id').limit(page.countUpTo).execute();
    const ids = found.slice(page.offset, page.offset + page.limit).map((row) => row.id);
    return { rows: await this.rowsInOrder(scope, ids), matched: found.length };
  }

  /** The owner's files with these ids, in the order given (any gone since are left out). */
  private async rowsInOrder(scope: LibraryScope, ids: readonly number[]): Promise<FileRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.filesByIds(scope, ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Newest first in a set of categories; `dense`: see pageCategoriesQueries. */
  pageCategories(
    scope: LibraryScope,
    path: string,
    offset: number,
    limit: number,
    dense: boolean,
  ): Promise<FileRow[]> {
    const query = dense ? listing.pageDense : listing.pageSparse;
    const { from, to } = pathRange(path);
    return query.execute(
      this.db,
      scope.owner.type,
      scope.owner.id,
      scope.library,
      from,
      to,
      offset,
      limit,
    );
  }

  /** The owner's files with these ids, locked for update on PostgreSQL (a replace or delete). */
  lockFiles(scope: LibraryScope, ids: readonly number[]): Promise<FileRow[]> {
    const query = this.files(scope).select(fileColumns).where('id', 'in', ids);
    return (this.postgres ? query.forUpdate() : query).execute();
  }

  /** The owner's files at one address, locked for update on PostgreSQL. */
  lockFilesAt(scope: LibraryScope, path: string): Promise<FileRow[]> {
    const query = this.files(scope).select(fileColumns).where('path', '=', path);
    return (this.postgres ? query.forUpdate() : query).execute();
  }

  /** Points files at another blob (a new version of their content). */
  async setBlob(ids: readonly number[], blobId: number, size: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('files').set({ blobId, size }).where('id', 'in', ids).execute();
  }

  /** Whether the name search index exists: always on SQLite (FTS5 is built in). */
  async nameSearchIndexed(): Promise<boolean> {
    if (!(this.db.getExecutor().adapter instanceof PostgresAdapter)) return true;
    const found = await sql<{ one: number }>`select 1 as one from pg_indexes
      where schemaname = current_schema() and indexname = ${trigramIndex}`.execute(this.db);
    return found.rows.length > 0;
  }

  /** Whether the owner has a library file with this path (it may save it again). */
  async ownsPath(scope: LibraryScope, path: string): Promise<boolean> {
    const row = await this.files(scope)
      .select('id')
      .where('path', '=', path)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The newest address of the owner's library files of this blob under this extension. */
  async newestPathOf(
    scope: LibraryScope,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    const owner = { ...scope.owner, library: scope.library };
    return newestPathIn(this.db, 'files', owner, blobId, ext);
  }

  /** The blob behind the owner's library file with this path, if there is one. */
  async blobIdAt(scope: LibraryScope, path: string): Promise<number | undefined> {
    const row = await this.files(scope)
      .select('blobId')
      .where('path', '=', path)
      .limit(1)
      .executeTakeFirst();
    return row?.blobId;
  }
}
