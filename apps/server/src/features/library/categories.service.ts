import type {
  CategoryEditRequest,
  CategoryListItem,
  CategoryNode,
  CategoryResponse,
} from '@atrium/shared/contract/files';
import { render, type Language } from '@atrium/shared/messages/catalogue';
import { ApiError, message } from '../../http/envelope';
import { CategoriesRepository } from './categories.repository';
import { FilesRepository, type LibraryScope } from './files.repository';
import { LibraryAnswers, libraryKey } from './library-answers';
import type { CategoryRow, FilesDb } from './library.tables';
import { about, libraryName } from './upload/index';

/** How deep categories nest below the root; "Parent" lists hold the ones that can take a child. */
const maxCategoryDepth = 6;

function depthOf(path: string): number {
  return path.split('/').filter(Boolean).length;
}

/** The caller's category `id`, or a failure naming the field; 0 is the root. */
export async function ownCategory(
  cats: CategoriesRepository,
  scope: LibraryScope,
  id: number,
  field: string,
): Promise<CategoryRow | undefined> {
  if (id === 0) return undefined;
  const row = await cats.getCategory(scope, id);
  if (!row) throw new ApiError(about(field, message('files.categoryMissing', { id })));
  return row;
}

/** The category tree of one owner's library: listed, added, renamed, moved, deleted (SPEC 7.3). */
export class CategoriesService {
  constructor(
    private readonly db: FilesDb,
    private readonly clock: () => number = Date.now,
    private readonly answers = new LibraryAnswers(),
  ) {}

  /**
   * The category tree; the root is named in `lang`, the language of the request (issue 27). Kept
   * in memory while the library's generation is unchanged (issue 32, LibraryAnswers).
   */
  async category(scope: LibraryScope, lang: Language): Promise<CategoryResponse> {
    const { generation } = await new FilesRepository(this.db).libraryCounts(scope);
    return this.answers.get(libraryKey(scope), generation, `tree:${lang}`, () =>
      this.tree(scope, lang),
    );
  }

  private async tree(scope: LibraryScope, lang: Language): Promise<CategoryResponse> {
    const rows = await new CategoriesRepository(this.db).listCategories(scope);
    const rootName = render(lang, libraryName(scope.library));
    const root: CategoryNode = {
      id: 0,
      pid: 0,
      name: rootName,
      title: rootName,
      sort: 0,
      _child: [],
    };
    const nodes = new Map<number, CategoryNode>();
    for (const row of rows) {
      nodes.set(row.id, {
        id: row.id,
        pid: row.pid,
        name: row.name,
        title: row.name,
        sort: row.sort,
        _child: [],
      });
    }
    for (const row of rows) {
      const node = nodes.get(row.id);
      if (node) (nodes.get(row.pid) ?? root)._child.push(node);
    }
    const flatten = (
      node: CategoryNode,
      depth: number,
      into: CategoryListItem[],
      maxDepth: number,
    ) => {
      into.push({
        id: node.id,
        pid: node.pid,
        name: node.name,
        title: node.title,
        sort: node.sort,
        depth,
      });
      if (depth < maxDepth)
        for (const child of node._child) flatten(child, depth + 1, into, maxDepth);
      return into;
    };
    const prune = (node: CategoryNode, depth: number): CategoryNode => ({
      ...node,
      _child:
        depth + 1 < maxCategoryDepth ? node._child.map((child) => prune(child, depth + 1)) : [],
    });
    const listAll = flatten(root, 0, [], Number.POSITIVE_INFINITY);
    const parentRoot = prune(root, 0);
    return {
      categoryTreeAll: [root],
      categoryListAll: listAll,
      categoryTreeParent: [parentRoot],
      categoryListParent: flatten(parentRoot, 0, [], maxCategoryDepth - 1),
      categories: listAll.slice(1),
    };
  }

  async categoryEdit(scope: LibraryScope, request: CategoryEditRequest): Promise<{ id: number }> {
    return this.db.transaction().execute(async (trx) => {
      const cats = new CategoriesRepository(trx);
      const now = this.clock();
      const parent = await ownCategory(cats, scope, request.pid, 'pid');
      const parentPath = parent?.path ?? '/';
      const parentDepth = depthOf(parentPath);
      const tooDeep = () =>
        new ApiError(about('pid', message('files.categoryTooDeep', { max: maxCategoryDepth })));

      if (request.id === 0) {
        if (parentDepth + 1 > maxCategoryDepth) throw tooDeep();
        const id = await cats.insertCategory({
          ownerType: scope.owner.type,
          ownerId: scope.owner.id,
          library: scope.library,
          pid: request.pid,
          name: request.title,
          sort: 0,
          path: parentPath,
          fileCount: 0,
          createdAt: now,
          updatedAt: now,
        });
        await cats.updateCategory(id, { path: `${parentPath}${id}/`, updatedAt: now });
        return { id };
      }

      const category = await ownCategory(cats, scope, request.id, 'id');
      if (!category) throw new ApiError(about('id', message('files.chooseCategory')));
      if (request.pid === category.pid) {
        await cats.updateCategory(category.id, { name: request.title, updatedAt: now });
        return { id: category.id };
      }
      if (parentPath.startsWith(category.path))
        throw new ApiError(about('pid', message('files.categoryUnderItself')));
      const height = await cats.subtreeHeight(scope, category.path);
      if (parentDepth + 1 + height > maxCategoryDepth) throw tooDeep();
      const newPath = `${parentPath}${category.id}/`;
      await cats.rewritePaths(scope, category.path, newPath, category.id);
      await cats.updateCategory(category.id, {
        name: request.title,
        pid: request.pid,
        path: newPath,
        updatedAt: now,
      });
      return { id: category.id };
    });
  }

  /** Deletes a category; its files and sub-categories move to its parent, so nothing is lost. */
  async categoryDelete(scope: LibraryScope, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new FilesRepository(trx);
      const cats = new CategoriesRepository(trx);
      const category = await ownCategory(cats, scope, id, 'id');
      if (!category) throw new ApiError(about('id', message('files.chooseCategory')));
      const parent = await ownCategory(cats, scope, category.pid, 'pid');
      const now = this.clock();
      const moved = await repo.moveCategoryFiles(scope, category.id, category.pid);
      await cats.addToCategoryCount(category.pid, moved);
      await cats.reparentChildren(scope, category.id, category.pid, now);
      await cats.rewritePaths(scope, category.path, parent?.path ?? '/', category.id);
      await cats.deleteCategory(category.id);
    });
  }
}
