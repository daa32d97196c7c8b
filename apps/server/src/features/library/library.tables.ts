import type { AreaName } from '@atrium/shared/areas';
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Library } from '@atrium/shared/contract/files';
import type { FileRefKind } from '@atrium/shared/file-refs';
import type { Database, Db } from '../../db/index';

/** Table shapes of the file library and upload engine (migration 2026_11_21_1000_files). */

export type OwnerType = AreaName;

/** Whose library: a member's own, or the one admin library (owner id 0) all admins share. */
export interface Owner {
  type: OwnerType;
  id: number;
}

interface FileBlobsTable {
  id: Generated<number>;
  /**
   * 64 hex digits naming the blob's storage and thumbnail keys: its SHA-256 for blobs stored
   * before migration 2026_11_28_1000, random after (blobs are told apart by MD5, size and bytes).
   */
  name: string;
  /** MD5 of the bytes the client sent (verified at upload), which may differ from those stored. */
  md5: string;
  /** Size of the stored bytes, which `path` serves. */
  size: number;
  /** Size of the bytes the client sent: with `md5`, what uploads find the blob by. */
  sentSize: number;
  /**
   * 1 when the stored bytes are the client's without their privacy metadata (an image uploaded
   * to a library that does not keep originals), 0 when they are the client's bytes as sent.
   */
  stripped: number;
  storageKey: string;
  refCount: number;
  createdAt: number;
}

type UploadStatus = 'open' | 'finishing';

export interface UploadSessionsTable {
  id: Generated<number>;
  ownerType: OwnerType;
  ownerId: number;
  library: Library;
  md5: string;
  size: number;
  name: string;
  ext: string;
  chunkSize: number;
  chunks: number;
  stagingKey: string;
  stagingUploadId: string | null;
  /** The running MD5's saved state after the first `hashedChunks` chunks (see `Hasher`). */
  md5State: string | null;
  hashedChunks: number;
  /** How many chunks are held, and how many of them from chunk 0 without a gap. */
  heldChunks: Generated<number>;
  contiguousChunks: Generated<number>;
  status: UploadStatus;
  /** While `status` is 'finishing': the instance holding the finish lease. */
  instanceId: string | null;
  /**
   * The blob name its bytes go to, once the whole file is verified: an equal blob's, or a new one
   * finishing moves the bytes to.
   */
  verifiedBlob: string | null;
  createdAt: number;
  updatedAt: number;
}

interface UploadChunksTable {
  sessionId: number;
  idx: number;
  size: number;
  etag: string;
  /** The instance that recorded it ('' for rows recorded before migration 2026_11_24_3000). */
  instanceId: string;
}

/**
 * A chunk some request is writing now (one writer per chunk, across instances); held while the
 * instance it names is alive.
 */
interface UploadChunkClaimsTable {
  sessionId: number;
  idx: number;
  token: string;
  instanceId: string;
  claimedAt: number;
}

export interface UploadsTable {
  id: Generated<number>;
  ownerType: OwnerType;
  ownerId: number;
  library: Library;
  blobId: number;
  name: string;
  ext: string;
  path: string;
  createdAt: number;
}

export interface FileCategoriesTable {
  id: Generated<number>;
  ownerType: OwnerType;
  ownerId: number;
  library: Library;
  pid: number;
  name: string;
  sort: number;
  path: string;
  fileCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface FilesTable {
  id: Generated<number>;
  ownerType: OwnerType;
  ownerId: number;
  library: Library;
  categoryId: number;
  blobId: number;
  name: string;
  ext: string;
  size: number;
  path: string;
  createdAt: number;
  /** References to its path (`file_refs`), kept with every change (migration 2026_11_29_2000). */
  useCount: Generated<number>;
}

interface FileLibraryStatsTable {
  ownerType: OwnerType;
  ownerId: number;
  library: Library;
  fileCount: number;
  /** Files of the library with no reference. */
  unusedCount: Generated<number>;
  /**
   * Bumped by triggers with every write to the library's files or categories (migration
   * 2026_12_04_1000): what answers kept in memory are tagged with (library-answers.ts).
   */
  generation: Generated<number>;
}

/** A deleted file in the trash (migration 2026_11_29_6000): the file's row as it was, and when. */
export type TrashedFilesTable = Omit<FilesTable, 'id' | 'useCount'> & {
  id: number;
  deletedAt: number;
};

/** A place holding a stored file's path (see `FileRefs`). */
export interface FileRefsTable {
  id: Generated<number>;
  path: string;
  kind: FileRefKind;
  /** The room, member, admin or chat message; 0 for the site settings. */
  holderId: number;
  /** The member whose place it is (avatar, chat), or null for the admin side's places. */
  memberId: number | null;
  /** The blob this reference keeps (a chat image's), or null when it keeps none. */
  blobId: number | null;
  createdAt: number;
}

type FilesTables = {
  fileBlobs: FileBlobsTable;
  uploadSessions: UploadSessionsTable;
  uploadChunks: UploadChunksTable;
  uploadChunkClaims: UploadChunkClaimsTable;
  uploads: UploadsTable;
  fileCategories: FileCategoriesTable;
  files: FilesTable;
  fileLibraryStats: FileLibraryStatsTable;
  fileRefs: FileRefsTable;
  trashedFiles: TrashedFilesTable;
};

export type FilesDb = Kysely<Database & FilesTables>;

/** The shared database handle seen with this feature's tables. */
export function filesDb(db: Db): FilesDb {
  return db.withTables<FilesTables>();
}

/** Explicit column lists for the repositories (DESIGN 11). */
export const blobColumns = [
  'id',
  'name',
  'md5',
  'size',
  'sentSize',
  'stripped',
  'storageKey',
  'refCount',
  'createdAt',
] as const;
export const sessionColumns = [
  'id',
  'ownerType',
  'ownerId',
  'library',
  'md5',
  'size',
  'name',
  'ext',
  'chunkSize',
  'chunks',
  'stagingKey',
  'stagingUploadId',
  'md5State',
  'hashedChunks',
  'heldChunks',
  'contiguousChunks',
  'status',
  'instanceId',
  'verifiedBlob',
  'createdAt',
  'updatedAt',
] as const;
export const chunkColumns = ['sessionId', 'idx', 'size', 'etag', 'instanceId'] as const;
export const uploadColumns = [
  'id',
  'ownerType',
  'ownerId',
  'library',
  'blobId',
  'name',
  'ext',
  'path',
  'createdAt',
] as const;
export const categoryColumns = [
  'id',
  'ownerType',
  'ownerId',
  'library',
  'pid',
  'name',
  'sort',
  'path',
  'fileCount',
  'createdAt',
  'updatedAt',
] as const;
export const fileColumns = [
  'id',
  'ownerType',
  'ownerId',
  'library',
  'categoryId',
  'blobId',
  'name',
  'ext',
  'size',
  'path',
  'createdAt',
  'useCount',
] as const;

export type BlobRow = Selectable<FileBlobsTable>;
export type TrashedRow = Selectable<TrashedFilesTable>;
export type SessionRow = Selectable<UploadSessionsTable>;
export type ChunkRow = Selectable<UploadChunksTable>;
export type UploadRow = Selectable<UploadsTable>;
export type CategoryRow = Selectable<FileCategoriesTable>;
export type FileRow = Selectable<FilesTable>;
