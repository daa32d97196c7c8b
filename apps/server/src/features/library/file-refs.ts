import type { FileRefKind, HeldPath } from '@atrium/shared/file-refs';
import { PostgresAdapter, type Kysely } from 'kysely';
import { filesDb, type FilesDb } from './library.tables';
import type { Database, Db } from '../../db/index';
import { ApiError, message, type MessageRef } from '../../http/envelope';
import { BlobsRepository } from './blobs.repository';

/** One place that holds paths: a room, the site settings (0), a member, an admin, a message. */
export interface RefHolder {
  /** The fields of the place this call speaks for: references of other kinds are left alone. */
  kinds: readonly FileRefKind[];
  holderId: number;
  /** The member whose place it is (their avatar, their chat message), or null. */
  memberId: number | null;
}

/** The request field each kind of reference comes from, named in errors. */
const fieldOf: Record<FileRefKind, string> = {
  roomCover: 'cover',
  roomDescription: 'description',
  roomIntroVideo: 'introVideo',
  roomIntroAudio: 'introAudio',
  roomDownload: 'downloads',
  siteLogo: 'logo',
  siteFavicon: 'favicon',
  siteBanner: 'banners',
  siteAbout: 'about',
  memberAvatar: 'avatar',
  adminAvatar: 'avatar',
  chatImage: 'images',
  chatDocument: 'paths',
};

/** The refusal of a newly held path that names no file, about the field it came from. */
const fileGone = (ref: HeldPath): MessageRef => ({
  ...message('files.fileGone', { path: ref.path }),
  field: fieldOf[ref.kind],
});

/** Kinds whose reference keeps the blob (and so the address) alive on its own. */
const keepsBlob: ReadonlySet<FileRefKind> = new Set(['chatImage', 'chatDocument']);

const key = (kind: string, path: string) => `${kind}\n${path}`;

/**
 * The usage graph (issue 17): who holds which stored file's path. Every write of a place that
 * holds paths calls `hold` in its own transaction, so the graph and the places never disagree;
 * each file counts the references to its path (`files.use_count`) and each library its unused
 * files, kept in the same statements.
 *
 * A newly held path must be a file (or an upload not yet filed) that exists: on PostgreSQL the
 * file rows are locked for share while the reference is recorded, and `lockForDelete` locks them
 * for update, so a delete and a re-point racing each other are ordered, and a delete never misses
 * a reference that a re-point is adding (SQLite runs one write transaction at a time).
 */
export class FileRefs {
  private readonly postgres: boolean;
  private readonly blobs: BlobsRepository;

  constructor(private readonly db: FilesDb) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    this.blobs = new BlobsRepository(db);
  }

  /** Makes `holder`'s references exactly `refs` (of its kinds). Throws, naming the field, when a new one names no file. */
  async hold(holder: RefHolder, refs: readonly HeldPath[]): Promise<void> {
    const current =
      holder.kinds.length === 0
        ? []
        : await this.db
            .selectFrom('fileRefs')
            .select(['id', 'kind', 'path', 'blobId'])
            .where('kind', 'in', holder.kinds)
            .where('holderId', '=', holder.holderId)
            .execute();
    const wanted = new Map<string, HeldPath>();
    for (const ref of refs) {
      if (!holder.kinds.includes(ref.kind)) throw new Error(`${ref.kind} is not this holder's`);
      wanted.set(key(ref.kind, ref.path), ref);
    }
    const gone = current.filter((row) => !wanted.has(key(row.kind, row.path)));
    const have = new Set(current.map((row) => key(row.kind, row.path)));
    const added = [...wanted.values()].filter((ref) => !have.has(key(ref.kind, ref.path)));

    await this.release(gone);
    const now = Date.now();
    for (const ref of added) {
      const blobId = await this.liveBlobOf(ref.path);
      if (blobId === undefined) {
        throw new ApiError(fileGone(ref));
      }
      const keep = keepsBlob.has(ref.kind);
      if (keep && !(await this.blobs.addBlobRefs(blobId, 1))) {
        throw new ApiError(fileGone(ref));
      }
      await this.db
        .insertInto('fileRefs')
        .values({
          path: ref.path,
          kind: ref.kind,
          holderId: holder.holderId,
          memberId: holder.memberId,
          blobId: keep ? blobId : null,
          createdAt: now,
        })
        .execute();
      await this.countUse(ref.path, 1);
    }
  }

  /**
   * Drops every reference of chat messages in these conversations, and of the documents attached
   * to them (deleted with them).
   */
  async dropConversations(conversationIds: readonly number[]): Promise<void> {
    if (conversationIds.length === 0) return;
    const documents = await this.db
      .selectFrom('fileRefs')
      .select(['id', 'path', 'blobId'])
      .where('kind', '=', 'chatDocument')
      .where('holderId', 'in', conversationIds)
      .execute();
    await this.release(documents);
    const rows = await this.db
      .selectFrom('fileRefs')
      .select(['id', 'path', 'blobId'])
      .where('kind', '=', 'chatImage')
      .where(
        'holderId',
        'in',
        this.db
          .withTables<{ chatMessages: { id: number; conversationId: number } }>()
          .selectFrom('chatMessages')
          .select('chatMessages.id')
          .where('chatMessages.conversationId', 'in', conversationIds),
      )
      .execute();
    await this.release(rows);
  }

  /**
   * Deletes these references: their files count one use fewer, and a kept blob one reference
   * fewer (the sweeper frees a blob nothing references any more).
   */
  private async release(
    rows: readonly { id: number; path: string; blobId: number | null }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .deleteFrom('fileRefs')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    for (const row of rows) {
      await this.countUse(row.path, -1);
      if (row.blobId !== null) await this.blobs.dropBlobRefs(row.blobId, 1);
    }
  }

  /**
   * The blob behind a path that exists now: a file's, an upload's, or one a reference keeps
   * (a chat image whose file was deleted may be sent again). The file rows are locked for share
   * on PostgreSQL (see the class).
   */
  private async liveBlobOf(path: string): Promise<number | undefined> {
    let files = this.db
      .selectFrom('files')
      .select('blobId')
      .where('path', '=', path)
      .orderBy('id')
      .limit(1);
    if (this.postgres) files = files.forShare();
    const file = await files.executeTakeFirst();
    if (file) return file.blobId;
    const upload = await this.db
      .selectFrom('uploads')
      .select('blobId')
      .where('path', '=', path)
      .limit(1)
      .executeTakeFirst();
    if (upload) return upload.blobId;
    const kept = await this.db
      .selectFrom('fileRefs')
      .select('blobId')
      .where('path', '=', path)
      .where('blobId', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return kept?.blobId ?? undefined;
  }

  /** Counts one more (or one fewer) reference on the files at `path`, and their libraries' unused files. */
  private async countUse(path: string, by: 1 | -1): Promise<void> {
    const rows = await this.db
      .updateTable('files')
      .set((eb) => ({ useCount: eb('useCount', '+', by) }))
      .where('path', '=', path)
      .returning(['ownerType', 'ownerId', 'library', 'useCount'])
      .execute();
    for (const row of rows) {
      // Became used (0 -> 1) or unused (1 -> 0).
      const flipped = by === 1 ? row.useCount === 1 : row.useCount === 0;
      if (!flipped) continue;
      await this.db
        .updateTable('fileLibraryStats')
        .set((eb) => ({ unusedCount: eb('unusedCount', '+', -by) }))
        .where('ownerType', '=', row.ownerType)
        .where('ownerId', '=', row.ownerId)
        .where('library', '=', row.library)
        .execute();
    }
  }

  /** The references at `path` that keep a blob of their own (chat images). */
  async keptAt(path: string): Promise<{ id: number; blobId: number }[]> {
    const rows = await this.db
      .selectFrom('fileRefs')
      .select(['id', 'blobId'])
      .where('path', '=', path)
      .where('blobId', 'is not', null)
      .execute();
    return rows.flatMap((row) => (row.blobId === null ? [] : [{ id: row.id, blobId: row.blobId }]));
  }

  /** Makes the references at `path` that keep a blob keep this one (a file replaced in place). */
  async keepBlobAt(path: string, blobId: number): Promise<void> {
    await this.db
      .updateTable('fileRefs')
      .set({ blobId })
      .where('path', '=', path)
      .where('blobId', 'is not', null)
      .execute();
  }

  /** How many references name `path` now (what a new file at it starts counting from). */
  async countAt(path: string): Promise<number> {
    const row = await this.db
      .selectFrom('fileRefs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('path', '=', path)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Locks the files at these ids for update (PostgreSQL) and answers the references to their
   * paths that would be left without a file if they went: a path another remaining file also
   * has is still there.
   */
  async lockForDelete(ids: readonly number[]): Promise<UsageRow[]> {
    if (ids.length === 0) return [];
    let locked = this.db.selectFrom('files').select(['id', 'path']).where('id', 'in', ids);
    if (this.postgres) locked = locked.forUpdate();
    const rows = await locked.execute();
    const paths = [...new Set(rows.map((row) => row.path))];
    if (paths.length === 0) return [];
    const kept = await this.db
      .selectFrom('files')
      .select('path')
      .where('path', 'in', paths)
      .where('id', 'not in', ids)
      .execute();
    const stays = new Set(kept.map((row) => row.path));
    const orphaned = paths.filter((path) => !stays.has(path));
    return orphaned.length === 0 ? [] : this.usageOf(orphaned);
  }

  /** The references to these paths. */
  async usageOf(paths: readonly string[]): Promise<UsageRow[]> {
    if (paths.length === 0) return [];
    return this.db
      .selectFrom('fileRefs')
      .select(['path', 'kind', 'holderId', 'memberId', 'blobId'])
      .where('path', 'in', paths)
      .orderBy('id')
      .execute();
  }
}

export interface UsageRow {
  path: string;
  kind: FileRefKind;
  holderId: number;
  memberId: number | null;
  blobId: number | null;
}

/**
 * Records what a place holds, in the caller's transaction (`db` is the transaction): for the
 * features whose rows hold files' paths (rooms, settings, accounts, chat).
 */
export function holdFiles(db: AnyDb, holder: RefHolder, refs: readonly HeldPath[]): Promise<void> {
  return new FileRefs(filesDbOf(db)).hold(holder, refs);
}

/**
 * Any feature's handle or transaction (each sees the shared tables with its own): seen with the
 * library's tables, on the same connection.
 */
type AnyDb = Pick<Kysely<Database>, 'getExecutor'>;
const filesDbOf = (db: AnyDb): FilesDb => filesDb(db as unknown as Db);

/** Drops the references of the chat messages of these conversations, before they are deleted. */
export function releaseConversationFiles(
  db: AnyDb,
  conversationIds: readonly number[],
): Promise<void> {
  return new FileRefs(filesDbOf(db)).dropConversations(conversationIds);
}
