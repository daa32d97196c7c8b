import { z, type ZodType } from 'zod';
import { fileRefKinds } from '../file-refs';
import { epochMs, id } from './paging.answers';

/** What the file manager answers (SPEC 3.2, 3.3, 7.2, 7.3). */

const count = z.number().int().nonnegative();
const library = z.enum(['image', 'file', 'video', 'audio']);

/** One place that uses a file, as its owner may see it. */
export const fileUse = z.strictObject({
  kind: z.enum(fileRefKinds),
  /** The room, member, admin or chat message (0 for the site settings). */
  holderId: count,
  /** The room's title, the member's or admin's name, the conversation's title ('' for the site). */
  label: z.string(),
  /** For a chat image: the conversation and its room. */
  conversationId: count.optional(),
  roomId: count.optional(),
});

/** A file of the library as the picker lists it (SPEC 3.2). */
export const fileRecord = z.strictObject({
  id,
  /** The library key. */
  category: library,
  filename: z.string(),
  name: z.string(),
  path: z.string(),
  fullPath: z.string(),
  /** The extension, lower-case. */
  type: z.string(),
  size: count,
  categoryId: count,
  createdAt: epochMs,
  /** Address of a small preview, for images. */
  thumbnail: z.string().optional(),
  /** How many places use the file (issue 17: room covers, settings, avatars, chat images...). */
  useCount: count.optional(),
  /** With `list`'s `withUsage`: the places the caller may see (issue 17), and how many others. */
  usedBy: z.array(fileUse).optional(),
  usedByHidden: count.optional(),
});

/**
 * What `save` answers: the file filed, or (`existing`) the file of that category with the same
 * bytes and name, which was filed already: no twin is made (issue 28).
 */
export const savedFile = fileRecord.extend({ existing: z.literal(true).optional() });

interface CategoryNode {
  id: number;
  pid: number;
  name: string;
  title: string;
  sort: number;
  _child: CategoryNode[];
}
export const categoryNode: ZodType<CategoryNode> = z.lazy(() =>
  z.strictObject({
    id: count,
    pid: count,
    name: z.string(),
    title: z.string(),
    sort: z.number().int(),
    _child: z.array(categoryNode),
  }),
);

export const categoryListItem = z.strictObject({
  id: count,
  pid: count,
  name: z.string(),
  title: z.string(),
  sort: z.number().int(),
  depth: count,
});

/** Answer of `action=category` (SPEC 3.3, 7.3). */
export const categoryResponse = z.strictObject({
  /** The root (id 0, "<Library> Gallery") with every category nested under `_child`. */
  categoryTreeAll: z.array(categoryNode),
  /** categoryTreeAll flattened in tree order, each with its depth (root 0). */
  categoryListAll: z.array(categoryListItem),
  /** The tree of categories that can take a sub-category (every one, and the root). */
  categoryTreeParent: z.array(categoryNode),
  categoryListParent: z.array(categoryListItem),
  /** The categories without the root, flat, in tree order. */
  categories: z.array(categoryListItem),
});

export const listResponse = z.strictObject({
  records: z.array(fileRecord),
  total: count,
  pageSize: z.number().int().positive(),
  page: z.number().int().positive(),
  /**
   * Present (true) when a search or filter has more matches than it counted: `total` is then
   * the matches up to some pages past this one, and more follow (issue 17).
   */
  totalCapped: z.literal(true).optional(),
});

const finished = {
  path: z.string().optional(),
  fullPath: z.string().optional(),
  data: z.strictObject({ filename: z.string(), size: count }).optional(),
};

/** Answer of `action=init` (SPEC 7.2, DESIGN 6): `path` when nothing needs to be sent. */
export const initResponse = z.strictObject({
  /** Chunks held from 0 without a gap (SPEC's meaning, what one-at-a-time clients resume from). */
  chunkUploaded: count,
  chunks: z.number().int().positive(),
  chunkSize: z.number().int().positive(),
  /**
   * The chunks still to send, as [from, to) ranges in order, when the upload is not finished:
   * chunks sent in parallel may leave gaps after `chunkUploaded`.
   */
  missing: z.array(z.tuple([count, count])).optional(),
  ...finished,
});

/** Answer of a chunk: progress, or on the last one the finished upload (SPEC 7.2). */
export const chunkResponse = z.strictObject({
  chunkUploaded: count,
  chunks: z.number().int().positive(),
  ...finished,
});

export const categoryEditResponse = z.strictObject({ id });

/** Answer of `action=usage`: per file asked about, every place using it that the caller may see. */
export const usageResponse = z.array(
  z.strictObject({
    id,
    useCount: count,
    usedBy: z.array(fileUse),
    /** Places using it that the caller may not see (another member's, or the admin side's). */
    hidden: count,
  }),
);

/** Answer of `action=trash`: files deleted, with when, and when they go for good. */
export const trashResponse = z.strictObject({
  records: z.array(
    z.strictObject({
      ...fileRecord.shape,
      deletedAt: epochMs,
      expiresAt: epochMs,
    }),
  ),
  total: count,
  pageSize: z.number().int().positive(),
  page: z.number().int().positive(),
  /** How many days a file stays in the trash (the upload settings' trashDays). */
  days: z.number().int().positive(),
});

/**
 * Answer of `action=categoryDeletePreview` (issue 28): what deleting the category will move to
 * its parent (DESIGN 6), and the places using files that move, asked before the delete.
 */
export const categoryDeletePreviewResponse = z.strictObject({
  /** Files filed in the category itself: they move to `parent`. */
  files: count,
  /** Its sub-categories: they move to `parent`, each with its own files. */
  categories: count,
  /** The files of those sub-categories and everything below them. */
  filesBelow: count,
  /** The name of the category everything moves to (the library's root name at the top). */
  parent: z.string(),
  /** Files of the category or below it that something uses, with the places the caller may see. */
  used: z.array(
    z.strictObject({ id, filename: z.string(), usedBy: z.array(fileUse), hidden: count }),
  ),
  /** Used files beyond those listed. */
  moreUsed: count,
});
