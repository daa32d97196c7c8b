import type { Library } from '@atrium/shared/contract/files';
import { sql } from 'kysely';
import { prepare } from '../../db/prepared';
import { categoryColumns, fileColumns, type FilesDb, type OwnerType } from './library.tables';

/** The FTS5 table over `files.name` (SQLite, migration 2026_11_29_7000). */
export type FtsTables = {
  filesFts: { rowid: number; name: string };
};

/** The trigram tokenizer indexes runs of 3 characters: shorter words cannot be looked up. */
export const trigramMinLength = 3;

/** `text` as one FTS5 phrase: with the trigram tokenizer, a case-folded substring match. */
function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Longer ASCII words than this look up only some of their trigrams (see ftsQuery). */
const allTrigramsUpTo = 6;

/**
 * The FTS5 query for a substring search, and the lower-cased text each row it finds must hold
 * when the query alone does not prove it. A phrase opens one cursor per trigram and checks their
 * positions: a long one costs most of a search. Longer ASCII words look up every third trigram
 * and the last (so every character is covered) and the row is checked with `instr(lower())`,
 * which folds ASCII case exactly as the index does. Other text stays a phrase.
 */
export function ftsQuery(text: string): { match: string; check?: string } {
  if (text.length <= allTrigramsUpTo || !/^[\x20-\x7e]+$/.test(text))
    return { match: ftsPhrase(text) };
  const lower = text.toLowerCase();
  const starts = new Set<number>();
  for (let at = 0; at + trigramMinLength <= lower.length; at += trigramMinLength) starts.add(at);
  starts.add(lower.length - trigramMinLength);
  const trigrams = [...starts].map((at) => ftsPhrase(lower.slice(at, at + trigramMinLength)));
  return { match: trigrams.join(' AND '), check: lower };
}

/**
 * The categories at or below `path` ('/<root id>/.../<id>/') as a range of paths: every path
 * that starts with it lies in [path, path with its last '/' raised to '0'), and only those.
 * SQLite plans a statement again at every execution whose LIKE pattern is a bound value (to use
 * the index for a prefix it must see the pattern); a range keeps the statement as prepared. Paths
 * hold digits and '/' only, which both databases order as bytes (C collation on PostgreSQL,
 * NOCASE on SQLite).
 */
export function pathRange(path: string): { from: string; to: string } {
  if (!/^(\/\d+)+\/$/.test(path)) throw new Error(`not a category path: ${path}`);
  return { from: path, to: `${path.slice(0, -1)}0` };
}

/** One owner's library of a table: the where-clause every query here starts from. */
export function ownedFiles(db: FilesDb, type: OwnerType, owner: number, library: Library) {
  return db
    .selectFrom('files')
    .where('ownerType', '=', type)
    .where('ownerId', '=', owner)
    .where('library', '=', library);
}

/**
 * The newest address of the owner's files (`files`), trashed files (`trashedFiles`) or unsaved
 * uploads (`uploads`) holding this blob under this extension: an upload of known bytes takes the
 * address it had before.
 */
export async function newestPathIn(
  db: FilesDb,
  table: 'files' | 'trashedFiles' | 'uploads',
  owner: { type: OwnerType; id: number; library: Library },
  blobId: number,
  ext: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom(table)
    .select('path')
    .where('ownerType', '=', owner.type)
    .where('ownerId', '=', owner.id)
    .where('library', '=', owner.library)
    .where('blobId', '=', blobId)
    .where('ext', '=', ext)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.path;
}

export function ownedCategories(db: FilesDb, type: OwnerType, owner: number, library: Library) {
  return db
    .selectFrom('fileCategories')
    .where('ownerType', '=', type)
    .where('ownerId', '=', owner)
    .where('library', '=', library);
}

/** Newest first over the whole library, or only among the files nothing uses. */
function newestFirst(unused: boolean) {
  return prepare(
    (
      db: FilesDb,
      type: OwnerType,
      owner: number,
      library: Library,
      offset: number,
      limit: number,
    ) => {
      const query = ownedFiles(db, type, owner, library).select(fileColumns);
      return (unused ? query.where('useCount', '=', 0) : query)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset);
    },
  );
}

/** The listing queries, built once (see PreparedQuery): `list` runs them on every page. */
export const listing = {
  category: prepare((db: FilesDb, type: OwnerType, owner: number, library: Library, id: number) =>
    ownedCategories(db, type, owner, library).select(categoryColumns).where('id', '=', id),
  ),
  libraryCount: prepare((db: FilesDb, type: OwnerType, owner: number, library: Library) =>
    db
      .selectFrom('fileLibraryStats')
      .select(['fileCount', 'unusedCount', 'generation'])
      .where('ownerType', '=', type)
      .where('ownerId', '=', owner)
      .where('library', '=', library),
  ),
  subtree: prepare(
    (db: FilesDb, type: OwnerType, owner: number, library: Library, from: string, to: string) =>
      ownedCategories(db, type, owner, library)
        .select((eb) => [
          eb.fn.countAll<number>().as('categories'),
          // bigint on PostgreSQL, where sum() of a bigint column would be numeric (a string).
          sql<number>`cast(coalesce(sum(${sql.ref('fileCount')}), 0) as bigint)`.as('fileCount'),
        ])
        .where('path', '>=', from)
        .where('path', '<', to),
  ),
  /** Newest first over the whole library. */
  pageAll: newestFirst(false),
  /** Newest first among the library's files nothing uses (the unused filter at the root). */
  pageUnused: newestFirst(true),
  pageCategory: prepare(
    (
      db: FilesDb,
      type: OwnerType,
      owner: number,
      library: Library,
      categoryId: number,
      offset: number,
      limit: number,
    ) =>
      ownedFiles(db, type, owner, library)
        .select(fileColumns)
        .where('categoryId', '=', categoryId)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset),
  ),
  ...pageCategoriesQueries(),
};

/**
 * Newest first in a set of categories (a path prefix). `dense` (the set holds a large share of
 * the library) walks the library newest first and keeps matching rows; `sparse` gathers the rows
 * of each category through the category index and sorts them, cheaper for a small share.
 */
function pageCategoriesQueries() {
  const build = (dense: boolean) =>
    prepare(
      (
        db: FilesDb,
        type: OwnerType,
        owner: number,
        library: Library,
        from: string,
        to: string,
        offset: number,
        limit: number,
      ) => {
        const inSubtree = ownedCategories(db, type, owner, library)
          .select('id')
          .where('path', '>=', from)
          .where('path', '<', to);
        const query = ownedFiles(db, type, owner, library).select(fileColumns);
        // Unary plus keeps the planner off the category index, so it walks the id order instead.
        const filtered = dense
          ? query.where(sql<number>`+category_id`, 'in', inSubtree)
          : query.where('categoryId', 'in', inSubtree);
        return filtered.orderBy('id', 'desc').limit(limit).offset(offset);
      },
    );
  return { pageDense: build(true), pageSparse: build(false) };
}
