import { z } from 'zod';
import { Limits } from '../limits';
import { bigIntField, int32Max, intField, intOrDigitsField, recordId, textField } from './fields';
import type { categoryListItem, categoryNode } from './files.answers';
import {
  categoryDeletePreviewResponse,
  categoryEditResponse,
  categoryResponse,
  chunkResponse,
  fileRecord,
  initResponse,
  listResponse,
  savedFile,
  trashResponse,
  usageResponse,
} from './files.answers';

/**
 * File library and chunked upload (SPEC 3.2-3.6, 7.2, 7.3; DESIGN 6): the calls at
 * `/member_data/file_manager/{library}` and `/admin/data/file_manager/{library}`.
 */

export const libraries = ['image', 'file', 'video', 'audio'] as const;
export type Library = (typeof libraries)[number];
export const librarySchema = z.enum(libraries);

/** Name of each library's root category (id 0). */
export const libraryRootNames: Record<Library, string> = {
  image: 'Image Gallery',
  file: 'File Gallery',
  video: 'Video Gallery',
  audio: 'Audio Gallery',
};

const MiB = 1024 * 1024;

export const uploadLibraryConfigSchema = z.object({
  extensions: z.array(textField().regex(/^[a-z0-9]{1,10}$/, 'files.extensionRule')).min(1),
  maxSize: bigIntField(1),
  /**
   * Keep the original metadata of JPEG, PNG, WebP and HEIC uploads (issue 17). Off or absent:
   * they are stored without GPS, device and time metadata (orientation, colour profile and
   * copyright kept).
   */
  keepMetadata: z.boolean().optional(),
});
export type UploadLibraryConfig = z.infer<typeof uploadLibraryConfigSchema>;

/** The `upload` setting and the answer of `action=config` (SPEC 3.6 dataUpload). */
export const uploadConfigSchema = z.object({
  chunkSize: intField(1, 100 * MiB),
  /**
   * How many chunks our upload button sends at once (DESIGN 6); SPEC's one-at-a-time clients
   * (WebUploader) ignore it. Settings saved before it existed read as 3.
   */
  parallelChunks: intField(1, 8).default(Limits.uploadParallelChunks),
  /**
   * Days a deleted file stays in the trash before it goes for good (issue 17); absent (settings
   * saved before it existed): `Limits.trashDays`.
   */
  trashDays: intField(1, 3650).optional(),
  category: z.object({
    image: uploadLibraryConfigSchema,
    file: uploadLibraryConfigSchema,
    video: uploadLibraryConfigSchema,
    audio: uploadLibraryConfigSchema,
  }),
});
export type UploadConfig = z.infer<typeof uploadConfigSchema>;

/** DESIGN 6 defaults; the admin may change them through the `upload` setting. */
export const defaultUploadConfig: UploadConfig = {
  chunkSize: 5 * MiB,
  parallelChunks: Limits.uploadParallelChunks,
  trashDays: Limits.trashDays,
  category: {
    image: { extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp'], maxSize: 20 * MiB },
    video: { extensions: ['mp4', 'webm', 'mov'], maxSize: 2048 * MiB },
    audio: { extensions: ['mp3', 'wav', 'ogg', 'm4a', 'flac'], maxSize: 200 * MiB },
    file: {
      extensions: [
        'pdf',
        'txt',
        'csv',
        'md',
        'json',
        'zip',
        'doc',
        'docx',
        'xls',
        'xlsx',
        'ppt',
        'pptx',
      ],
      maxSize: 1024 * MiB,
    },
  },
};

/** Longest file name accepted, in UTF-8 bytes. */
export const maxFileNameBytes = 200;
export const maxCategoryNameLength = 100;
export const fileListPageSize = 10;
/** Orders `list` can sort by (issue 17). */
export const listSortKeys = ['date', 'name', 'size'] as const;
/** Most extensions one `list` filters by. */
export const maxListTypes = 20;
/**
 * A filtered or searched `list` counts its matches only this many pages past the page asked
 * for: `total` is then a lower bound and `totalCapped` says so (issue 17; see README).
 */
export const listCountPagesAhead = 1;
/**
 * The unused filter without a search counts this many pages past the page asked for (issue 28:
 * it said "more than 10" for 17 files): its total is exact as far as the pagination numbers pages
 * (the first five), and beyond the counters' cheap walk of a category it never goes.
 */
export const unusedCountPagesAhead = 5;

/** A category id, 0 for the root, sent as a JSON number or a string of digits. */
const idField = intOrDigitsField(0, int32Max);

/** Ids of checked files: "3,5,8" (SPEC 7.3), a single number, or a list. */
const idListField = z
  .union([
    recordId,
    textField().regex(/^\s*\d{1,15}(\s*,\s*\d{1,15})*\s*$/, 'files.idsFormat'),
    z.array(recordId).max(1000),
  ])
  .transform((value) => {
    if (typeof value === 'number') return [value];
    if (Array.isArray(value)) return value;
    return value.split(',').map((part) => Number(part.trim()));
  })
  .pipe(z.array(recordId).min(1, 'files.chooseFiles').max(1000));

export const configRequest = z.object({ action: z.literal('config') });

export const initRequest = z.object({
  action: z.literal('init'),
  name: textField(),
  type: textField().max(255).optional(),
  lastModifiedDate: textField().max(100).optional(),
  /** Bytes, a `bigint` column: files may be larger than 2 GiB. */
  size: bigIntField(1, Number.MAX_SAFE_INTEGER, {
    int: 'files.sizeWhole',
    min: 'files.emptyFile',
  }),
  md5: textField().regex(/^[0-9a-fA-F]{32}$/, 'files.md5Format'),
});
export type InitRequest = z.infer<typeof initRequest>;

export const saveRequest = z.object({
  action: z.literal('save'),
  path: textField().min(1).max(500),
  name: textField(),
  /** Sent by the client for information only: the stored size is what counts. */
  size: z.union([bigIntField(0), textField().max(100)]).optional(),
  categoryId: idField.default(0),
});
export type SaveRequest = z.infer<typeof saveRequest>;

export const categoryRequest = z.object({ action: z.literal('category') });

export const listRequest = z
  .object({
    action: z.literal('list'),
    page: z
      .union([
        intField(1, int32Max),
        textField()
          .regex(/^\d{1,9}$/)
          .transform(Number),
      ])
      .default(1)
      .transform((page) => Math.max(1, page)),
    categoryId: idField.default(0),
    /** Only files whose name holds these words (any case), within the category and below it. */
    keywords: textField().trim().max(100).optional(),
    /** Only files nothing uses (issue 17). */
    unused: z.boolean().optional(),
    /** Each record with the places using it (`usedBy`), in the same answer (issue 17). */
    withUsage: z.boolean().optional(),
    /**
     * Order of the list (issue 17): `date` (the order files were filed in), `name` or `size`, in
     * `order` (default: descending for date and size, ascending for name). Absent: newest first.
     */
    sort: z.enum(listSortKeys).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    /** Only files with these extensions (any case, e.g. `['pdf', 'png']`). */
    types: z
      .array(
        textField()
          .trim()
          .toLowerCase()
          .regex(/^[a-z0-9]{1,10}$/, 'files.extensionRule'),
      )
      .min(1, 'files.typesEmpty')
      .max(maxListTypes)
      .optional(),
    /** Only files filed at or after this time (epoch milliseconds). */
    from: bigIntField(0).optional(),
    /** Only files filed at or before this time (epoch milliseconds). */
    to: bigIntField(0).optional(),
  })
  .refine((body) => body.from === undefined || body.to === undefined || body.from <= body.to, {
    message: 'files.fromAfterTo',
    path: ['from'],
  });
export type ListRequest = z.infer<typeof listRequest>;
export type ListSortKey = (typeof listSortKeys)[number];

export const fileEditRequest = z.object({
  action: z.literal('fileEdit'),
  categoryId: idField,
  id: idListField,
});
export type FileEditRequest = z.infer<typeof fileEditRequest>;

export const fileDeleteRequest = z.object({
  action: z.literal('fileDelete'),
  id: idListField,
  /** Deletes files in use too (the admin library refuses them without it, naming the places). */
  confirm: z.boolean().optional(),
});

/** The trash, newest deleted first (issue 17). */
export const trashRequest = z.object({
  action: z.literal('trash'),
  page: z
    .union([
      intField(1, int32Max),
      textField()
        .regex(/^\d{1,9}$/)
        .transform(Number),
    ])
    .default(1),
});

/** Puts files of the trash back where they were. */
export const restoreRequest = z.object({ action: z.literal('restore'), id: idListField });

/** Deletes files of the trash for good: these, or with `all` every one. */
export const purgeRequest = z
  .object({ action: z.literal('purge'), id: idListField.optional(), all: z.boolean().optional() })
  .refine((body) => body.all === true || body.id !== undefined, {
    message: 'files.purgeWhat',
    path: ['id'],
  });

/** Replace in place (issue 17): file `id` takes the bytes of the caller's upload at `path`. */
export const replaceRequest = z.object({
  action: z.literal('replace'),
  id: intOrDigitsField(1, int32Max, { min: 'files.chooseFile' }),
  path: textField().min(1).max(500),
});

/** Where each of these files is used (issue 17). */
export const usageRequest = z.object({ action: z.literal('usage'), id: idListField });
export type UsageRequest = z.infer<typeof usageRequest>;
export type FileDeleteRequest = z.infer<typeof fileDeleteRequest>;

export const categoryEditRequest = z.object({
  action: z.literal('categoryEdit'),
  id: idField.default(0),
  pid: idField.default(0),
  title: textField().trim().min(1).max(maxCategoryNameLength),
});
export type CategoryEditRequest = z.infer<typeof categoryEditRequest>;

export const categoryDeleteRequest = z.object({
  action: z.literal('categoryDelete'),
  id: intOrDigitsField(1, int32Max, { min: 'files.chooseCategory' }),
});
export type CategoryDeleteRequest = z.infer<typeof categoryDeleteRequest>;

/** What deleting a category would move where, asked before the delete (issue 28). */
export const categoryDeletePreviewRequest = z.object({
  action: z.literal('categoryDeletePreview'),
  id: intOrDigitsField(1, int32Max, { min: 'files.chooseCategory' }),
});

/** Every JSON call of the file manager, told apart by `action`. */
export const fileManagerRequest = z.discriminatedUnion('action', [
  configRequest,
  initRequest,
  saveRequest,
  categoryRequest,
  listRequest,
  fileEditRequest,
  fileDeleteRequest,
  usageRequest,
  replaceRequest,
  trashRequest,
  restoreRequest,
  purgeRequest,
  categoryEditRequest,
  categoryDeleteRequest,
  categoryDeletePreviewRequest,
]);
export type FileManagerRequest = z.infer<typeof fileManagerRequest>;
export type FileManagerAction = FileManagerRequest['action'];

/** The text fields of a chunk's multipart form (SPEC 7.2); numbers arrive as strings. */
export const chunkFields = z.object({
  id: textField().max(100).optional(),
  name: textField(),
  type: textField().max(255).optional(),
  lastModifiedDate: textField().max(100).optional(),
  size: textField(),
  // WebUploader leaves both out when the file fits in one chunk.
  chunks: textField().default('1'),
  chunk: textField().default('0'),
  md5: textField(),
});
export type ChunkFields = z.infer<typeof chunkFields>;

export type FileRecord = z.infer<typeof fileRecord>;
export type SavedFile = z.infer<typeof savedFile>;
export type CategoryNode = z.infer<typeof categoryNode>;
export type CategoryListItem = z.infer<typeof categoryListItem>;
export type CategoryResponse = z.infer<typeof categoryResponse>;
export type ListResponse = z.infer<typeof listResponse>;
export type InitResponse = z.infer<typeof initResponse>;
export type ChunkResponse = z.infer<typeof chunkResponse>;
export type UsageResponse = z.infer<typeof usageResponse>;
export type TrashResponse = z.infer<typeof trashResponse>;
export type CategoryDeletePreviewResponse = z.infer<typeof categoryDeletePreviewResponse>;
export type TrashedFileRecord = TrashResponse['records'][number];
export type FileUse = UsageResponse[number]['usedBy'][number];
/** Answer of `action=save`: the new library file. */
export type SaveResponse = FileRecord;

export type FilePermission = 'view' | 'upload' | 'edit' | 'delete';

/** DESIGN 7: the picker's View / Upload / Add/Edit / Delete flags, as admin rules. */
export const fileManagerRule = (permission: FilePermission) => `data/file_manager/${permission}`;

/** Where each area's library answers; `:category` is the library key (DESIGN 5). */
export const fileLibraryAddresses = {
  admin: '/admin/data/file_manager/:category',
  member: '/member_data/file_manager/:category',
} as const;

/**
 * The file manager's calls (SPEC 7.2, 7.3), declared once like the API table's: each action's
 * request and the `data` of its success, and the right it needs. `chunk` is the multipart upload
 * of one chunk (its text fields; the bytes travel in the `file` part).
 */
export const fileManagerCalls = {
  config: { permission: 'view', request: configRequest, answer: uploadConfigSchema },
  init: { permission: 'upload', request: initRequest, answer: initResponse },
  chunk: { permission: 'upload', request: chunkFields, answer: chunkResponse },
  save: { permission: 'upload', request: saveRequest, answer: savedFile },
  category: { permission: 'view', request: categoryRequest, answer: categoryResponse },
  list: { permission: 'view', request: listRequest, answer: listResponse },
  fileEdit: { permission: 'edit', request: fileEditRequest, answer: z.null() },
  fileDelete: { permission: 'delete', request: fileDeleteRequest, answer: z.null() },
  usage: { permission: 'view', request: usageRequest, answer: usageResponse },
  replace: { permission: 'edit', request: replaceRequest, answer: fileRecord },
  trash: { permission: 'view', request: trashRequest, answer: trashResponse },
  restore: { permission: 'delete', request: restoreRequest, answer: z.null() },
  purge: { permission: 'delete', request: purgeRequest, answer: z.null() },
  categoryEdit: { permission: 'edit', request: categoryEditRequest, answer: categoryEditResponse },
  categoryDelete: { permission: 'delete', request: categoryDeleteRequest, answer: z.null() },
  categoryDeletePreview: {
    permission: 'delete',
    request: categoryDeletePreviewRequest,
    answer: categoryDeletePreviewResponse,
  },
} as const satisfies Record<
  FileManagerAction | 'chunk',
  { permission: FilePermission; request: z.ZodType; answer: z.ZodType }
>;
export type FileManagerCalls = typeof fileManagerCalls;

/**
 * Actions ModStart's widgets send beside the dialog (its editor's direct image upload, raw saves,
 * pasted base64 images): not SPEC's, answered with a refusal naming the action (issue 31).
 */
export const modstartOnlyActions = [
  'uploadDirect',
  'uploadDirectRaw',
  'saveRaw',
  'uploadAndSaveBase64',
] as const;

export { shouldRetryUpload } from '../limits';

/**
 * The `hashLazyValue` entry (SPEC 4.2) that changes with the upload configuration: open pages
 * fetch `config` again on the next `app/config` refresh that brings a new value (issue 28).
 */
export const uploadConfigLazyKey = 'Upload';
