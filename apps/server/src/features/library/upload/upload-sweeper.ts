import { every } from '../../../every';
import type { SessionRow } from '../library.tables';
import { blobNameOfKey, type ListedObject, type Storage } from '../../../storage/index';
import type { BlobStore } from './blob-store';
import type { Log } from './upload-leases';
import { uploadRecords, type UploadRecords } from './upload-records';

/** Sessions untouched and uploads unsaved for this long are swept (DESIGN 6). */
export const uploadTtlMs = 24 * 3_600_000;
/**
 * Stored objects no row refers to are deleted once this old: younger ones may belong to an upload
 * between writing its bytes and recording them (a staging file before its session row).
 */
export const orphanGraceMs = 3_600_000;

export interface SweepResult {
  sessions: number;
  uploads: number;
  blobs: number;
  /** Stored objects no row referred to (left by crashes). */
  orphans: number;
}

/**
 * Frees what uploads leave behind: abandoned sessions, unsaved uploads older than a day, blobs
 * nothing points at, and stored objects no row refers to (left by a crash between writing bytes
 * and recording them).
 */
export class UploadSweeper {
  constructor(
    private readonly repo: UploadRecords,
    private readonly storage: Storage,
    private readonly blobs: BlobStore,
    private readonly dropSession: (session: SessionRow) => Promise<void>,
    private readonly log: Log | undefined,
  ) {}

  async sweep(now: number): Promise<SweepResult> {
    const before = now - uploadTtlMs;
    const result: SweepResult = { sessions: 0, uploads: 0, blobs: 0, orphans: 0 };
    for (
      let batch = await this.repo.sessions.expiredSessions(before, 100);
      batch.length > 0;
      batch = await this.repo.sessions.expiredSessions(before, 100)
    ) {
      for (const session of batch) {
        await this.dropSession(session);
        result.sessions += 1;
      }
    }
    for (
      let batch = await this.repo.unsaved.expiredUploads(before, 100);
      batch.length > 0;
      batch = await this.repo.unsaved.expiredUploads(before, 100)
    ) {
      for (const upload of batch) {
        await this.repo.db.transaction().execute(async (trx) => {
          const repo = uploadRecords(trx);
          await repo.unsaved.deleteUploads([upload.id]);
          await repo.blobs.dropBlobRefs(upload.blobId, 1);
        });
        result.uploads += 1;
      }
    }
    for (
      let batch = await this.repo.blobs.unreferencedBlobs(100);
      batch.length > 0;
      batch = await this.repo.blobs.unreferencedBlobs(100)
    ) {
      for (const blob of batch) {
        await this.blobs.collect(blob.id);
        result.blobs += 1;
      }
    }
    result.orphans = await this.sweepOrphans(now - orphanGraceMs);
    return result;
  }

  /** Deletes stored objects written before `before` that no row refers to; how many. */
  private async sweepOrphans(before: number): Promise<number> {
    let deleted = 0;
    const old = (page: ListedObject[]) => page.filter((object) => object.modifiedAt < before);
    for await (const page of this.storage.list('staging')) {
      for (const object of old(page)) {
        // Asked one at a time, right before deleting: a session may have been opened since.
        if ((await this.repo.sessions.stagingInUse([object.key])).size > 0) continue;
        await this.storage.abort({ key: object.key, uploadId: object.uploadId ?? null });
        deleted += 1;
      }
    }
    for (const area of ['blobs', 'thumbs'] as const) {
      for await (const page of this.storage.list(area)) {
        const candidates = old(page);
        const inUse = await this.repo.blobs.blobNamesInUse([
          ...new Set(candidates.flatMap((object) => blobNameOfKey(object.key) ?? [])),
        ]);
        for (const object of candidates) {
          const name = blobNameOfKey(object.key);
          // A thumbnail's temporary file is never kept this long; anything else unknown is kept.
          const leftover = object.key.endsWith('.tmp');
          if (!leftover && (!name || inUse.has(name))) continue;
          if (!leftover && name && (await this.repo.blobs.blobNamesInUse([name])).size > 0)
            continue;
          await this.storage.delete(object.key);
          deleted += 1;
        }
      }
    }
    return deleted;
  }

  /** Sweeps every `intervalMs` (one sweep at a time) until the returned function is called. */
  start(intervalMs: number, clock: () => number): () => void {
    return every(
      intervalMs,
      () => this.sweep(clock()),
      (error) => this.log?.warn({ err: error }, 'upload sweep failed'),
    );
  }
}
