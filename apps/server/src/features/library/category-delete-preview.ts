import type { CategoryDeletePreviewResponse } from '@atrium/shared/contract/files';
import { render, type Language } from '@atrium/shared/messages/catalogue';
import type { FileRow, FilesDb } from './library.tables';
import { pathRange } from './file-listing.queries';
import { ApiError, message } from '../../http/envelope';
import { about, libraryName } from './upload/index';
import { CategoriesRepository } from './categories.repository';
import type { LibraryScope } from './files.repository';
import type { FilesService } from './files.service';

/** Used files named one by one before a category goes; the rest are counted. */
export const previewUsedFiles = 20;

/**
 * What deleting a category will do (issue 28), asked before the delete: DESIGN 6 moves its files
 * and its sub-categories to its parent, so the question names how many of each go where, and the
 * places using any file that moves (their addresses do not change: those places keep working).
 */
export class CategoryDeletePreview {
  private readonly cats: CategoriesRepository;

  constructor(
    private readonly db: FilesDb,
    private readonly files: Pick<FilesService, 'placesOf'>,
  ) {
    this.cats = new CategoriesRepository(db);
  }

  async of(
    scope: LibraryScope,
    id: number,
    lang: Language,
  ): Promise<CategoryDeletePreviewResponse> {
    const category = await this.cats.getCategory(scope, id);
    if (!category) throw new ApiError(about('id', message('files.categoryMissing', { id })));
    const parent = category.pid > 0 ? await this.cats.getCategory(scope, category.pid) : undefined;
    const subtree = await this.cats.subtree(scope, category.path);
    const children = await this.categories(scope)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('pid', '=', category.id)
      .executeTakeFirst();
    const { from, to } = pathRange(category.path);
    const inSubtree = this.categories(scope)
      .select('id')
      .where('path', '>=', from)
      .where('path', '<', to);
    const usedRows: FileRow[] = await this.filesOf(scope)
      .selectAll()
      .where('categoryId', 'in', inSubtree)
      .where('useCount', '>', 0)
      .orderBy('id')
      .limit(previewUsedFiles + 1)
      .execute();
    const listed = usedRows.slice(0, previewUsedFiles);
    const usedTotal =
      usedRows.length > previewUsedFiles
        ? Number(
            (
              await this.filesOf(scope)
                .select((eb) => eb.fn.countAll<number | string>().as('n'))
                .where('categoryId', 'in', inSubtree)
                .where('useCount', '>', 0)
                .executeTakeFirst()
            )?.n ?? 0,
          )
        : listed.length;
    const places = await this.files.placesOf(scope, listed);
    return {
      files: category.fileCount,
      categories: Number(children?.n ?? 0),
      filesBelow: Math.max(0, subtree.fileCount - category.fileCount),
      parent: parent?.name ?? render(lang, libraryName(scope.library)),
      used: listed.map((row) => {
        const place = places.get(row.id);
        return {
          id: row.id,
          filename: row.name,
          usedBy: place?.usedBy ?? [],
          hidden: place?.hidden ?? 0,
        };
      }),
      moreUsed: usedTotal - listed.length,
    };
  }

  private categories(scope: LibraryScope) {
    return this.db
      .selectFrom('fileCategories')
      .where('ownerType', '=', scope.owner.type)
      .where('ownerId', '=', scope.owner.id)
      .where('library', '=', scope.library);
  }

  private filesOf(scope: LibraryScope) {
    return this.db
      .selectFrom('files')
      .where('ownerType', '=', scope.owner.type)
      .where('ownerId', '=', scope.owner.id)
      .where('library', '=', scope.library);
  }
}
