import type { Language, MessageKey } from '@atrium/shared/messages/catalogue';
import type { AnswerOf, ParsedRequestOf } from '@atrium/shared/contract/call';
import type { FileManagerAction, FileManagerCalls } from '@atrium/shared/contract/files';
import type { Owner } from './library.tables';
import type { UploadService } from './upload/index';
import type { CategoriesService } from './categories.service';
import type { FilesService } from './files.service';
import type { TrashService } from './trash.service';
import type { LibraryScope } from './files.repository';
import type { CategoryDeletePreview } from './category-delete-preview';
import type { TrashLinks } from './trash-links';

/** Who calls the file manager, once the area's access check passed. */
export interface FileManagerCaller {
  owner: Owner;
  /** Admin rules; undefined for members, who hold every right over their own library. */
  rules: string[] | undefined;
}

/** What one action's handler is given: its parsed body, typed by the action's declaration. */
export interface ActionContext<A extends FileManagerAction> {
  body: ParsedRequestOf<FileManagerCalls[A]>;
  caller: FileManagerCaller;
  scope: LibraryScope;
  /** The site's origin, for the files' full addresses. */
  origin: string;
  lang: Language;
}

/** A handler answers its action's declared `data` (SPEC 7.2, 7.3; contract/files). */
export type ActionHandler<A extends FileManagerAction> = (
  ctx: ActionContext<A>,
) => Promise<AnswerOf<FileManagerCalls[A]>>;

/**
 * One handler per declared action: an action added to `fileManagerCalls` without its handler
 * here, or a handler answering other than its declaration, does not compile.
 */
export type ActionHandlers = { [A in FileManagerAction]: ActionHandler<A> };

/** SPEC 7.3's notices ("Edit Success", …), in the request's language. */
export const successMessages: Partial<Record<FileManagerAction, MessageKey>> = {
  fileEdit: 'common.editSuccess',
  fileDelete: 'common.deleteSuccess',
  restore: 'files.restoreSuccess',
  purge: 'common.deleteSuccess',
  categoryEdit: 'common.addSuccess',
  categoryDelete: 'common.deleteSuccess',
};

export interface ActionServices {
  uploads: UploadService;
  files: FilesService;
  categories: CategoriesService;
  trashBin: TrashService;
  trashLinks: TrashLinks;
  categoryPreview: CategoryDeletePreview;
}

/** The file manager's actions, each through its declaration. */
export function fileManagerActions(s: ActionServices): ActionHandlers {
  return {
    config: async () => s.uploads.config(),
    init: ({ caller, scope, body, origin }) =>
      s.uploads.init(caller.owner, scope.library, body, origin),
    save: ({ scope, body, origin }) => s.files.save(scope, body, origin),
    category: ({ scope, lang }) => s.categories.category(scope, lang),
    list: ({ scope, body, origin }) => s.files.list(scope, body, origin),
    fileEdit: async ({ scope, body }) => {
      await s.files.fileEdit(scope, body.id, body.categoryId);
      return null;
    },
    fileDelete: async ({ scope, body }) => {
      await s.files.fileDelete(scope, body.id, body.confirm);
      return null;
    },
    usage: ({ scope, body }) => s.files.usage(scope, body.id),
    replace: ({ scope, body, origin }) => s.files.replace(scope, body.id, body.path, origin),
    trash: async ({ scope, body, origin }) =>
      s.trashLinks.present(await s.trashBin.trash(scope, body.page, origin), origin),
    restore: async ({ scope, body }) => {
      await s.trashBin.restore(scope, body.id);
      return null;
    },
    purge: async ({ scope, body }) => {
      await s.trashBin.purge(scope, body.all ? 'all' : (body.id ?? []));
      return null;
    },
    categoryEdit: ({ scope, body }) => s.categories.categoryEdit(scope, body),
    categoryDelete: async ({ scope, body }) => {
      await s.categories.categoryDelete(scope, body.id);
      return null;
    },
    categoryDeletePreview: ({ scope, body, lang }) => s.categoryPreview.of(scope, body.id, lang),
  };
}

/** Runs the handler of the body's action (one generic call keeps body and handler paired). */
export function runAction<A extends FileManagerAction>(
  handlers: ActionHandlers,
  action: A,
  ctx: ActionContext<A>,
): Promise<AnswerOf<FileManagerCalls[A]>> {
  const handler: ActionHandler<A> = handlers[action];
  return handler(ctx);
}
