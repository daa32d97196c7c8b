import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import { listing, ownedCategories, pathRange } from './file-listing.queries';
import type { LibraryScope, SubtreeStats } from './files.repository';
import {
  categoryColumns,
  type CategoryRow,
  type FileCategoriesTable,
  type FilesDb,
} from './library.tables';

/** The category tree of one owner's library and each category's file count (Kysely only). */
export class CategoriesRepository {
  constructor(readonly db: FilesDb) {}

  private categories(scope: LibraryScope) {
    return ownedCategories(this.db, scope.owner.type, scope.owner.id, scope.library);
  }

  listCategories(scope: LibraryScope): Promise<CategoryRow[]> {
    return this.categories(scope).select(categoryColumns).orderBy('sort').orderBy('id').execute();
  }

  getCategory(scope: LibraryScope, id: number): Promise<CategoryRow | undefined> {
    return listing.category.executeTakeFirst(
      this.db,
      scope.owner.type,
      scope.owner.id,
      scope.library,
      id,
    );
  }

  /** The category and everything below it, with the files filed directly in each. */
  async subtree(scope: LibraryScope, path: string): Promise<SubtreeStats> {
    const range = pathRange(path);
    const rows = await listing.subtree.execute(
      this.db,
      scope.owner.type,
      scope.owner.id,
      scope.library,
      range.from,
      range.to,
    );
    const [row] = rows;
    return { categories: Number(row?.categories ?? 0), fileCount: Number(row?.fileCount ?? 0) };
  }

  /** Depth of the deepest category under `path`, counted from the category itself (0 = no children). */
  async subtreeHeight(scope: LibraryScope, path: string): Promise<number> {
    const { from, to } = pathRange(path);
    const rows = await this.categories(scope)
      .select('path')
      .where('path', '>=', from)
      .where('path', '<', to)
      .execute();
    const base = path.split('/').length;
    return rows.reduce((max, r) => Math.max(max, r.path.split('/').length - base), 0);
  }

  async insertCategory(row: Insertable<FileCategoriesTable>): Promise<number> {
    const inserted = await this.db
      .insertInto('fileCategories')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  async updateCategory(
    id: number,
    changes: { name?: string; pid?: number; path?: string; updatedAt: number },
  ): Promise<void> {
    await this.db.updateTable('fileCategories').set(changes).where('id', '=', id).execute();
  }

  /** Rewrites the path prefix of every category below `oldPath` (moving or removing a branch). */
  async rewritePaths(
    scope: LibraryScope,
    oldPath: string,
    newPath: string,
    excludeId: number,
  ): Promise<void> {
    const { from, to } = pathRange(oldPath);
    await this.db
      .updateTable('fileCategories')
      .set({ path: sql<string>`${newPath} || substr(path, ${oldPath.length + 1})` })
      .where('ownerType', '=', scope.owner.type)
      .where('ownerId', '=', scope.owner.id)
      .where('library', '=', scope.library)
      .where('path', '>=', from)
      .where('path', '<', to)
      .where('id', '!=', excludeId)
      .execute();
  }

  async reparentChildren(
    scope: LibraryScope,
    fromId: number,
    toId: number,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('fileCategories')
      .set({ pid: toId, updatedAt: now })
      .where('ownerType', '=', scope.owner.type)
      .where('ownerId', '=', scope.owner.id)
      .where('library', '=', scope.library)
      .where('pid', '=', fromId)
      .execute();
  }

  async deleteCategory(id: number): Promise<void> {
    await this.db.deleteFrom('fileCategories').where('id', '=', id).execute();
  }

  async addToCategoryCount(categoryId: number, by: number): Promise<void> {
    if (categoryId === 0 || by === 0) return;
    await this.db
      .updateTable('fileCategories')
      .set((eb) => ({ fileCount: eb('fileCount', '+', by) }))
      .where('id', '=', categoryId)
      .execute();
  }
}
