import type { Library } from '@atrium/shared/contract/files';
import type { Owner, SessionRow } from '../../db/files.tables';
import { blobKey, thumbKey, type Storage } from '../../storage/index';
import { stagingOf } from './running-hash';
import { LeaseLost, type Log, type UploadLeases } from './upload-leases';
import { newAddress } from './upload-rules';
import { UploadRepository } from './upload.repository';

/** Width of library thumbnails. */
export const thumbWidth = 240;

/** The content address in a blob or thumbnail key (see `blobKey`, `thumbKey`). */
export function shaOfKey(key: string): string | undefined {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const sha = name.slice(0, 64);
  return /^[0-9a-f]{64}$/.test(sha) ? sha : undefined;
}

/** What an upload is recorded as, less the blob it points at. */
interface UploadOf {
  owner: Owner;
  library: Library;
  name: string;
  ext: string;
}

/**
 * Content-addressed, reference-counted blobs (DESIGN 6): each upload points at one, an upload of
 * content its owner already holds shares it, and a blob nothing points at any more is deleted.
 */
export class BlobStore {
  constructor(
    private readonly repo: UploadRepository,
    private readonly storage: Storage,
    private readonly leases: UploadLeases,
    private readonly instanceId: string,
    private readonly clock: () => number,
    private readonly log: Log | undefined,
  ) {}

  private uploadRow(of: UploadOf, path: string) {
    return {
      ownerType: of.owner.type,
      ownerId: of.owner.id,
      library: of.library,
      name: of.name,
      ext: of.ext,
      path,
      createdAt: this.clock(),
    };
  }

  /**
   * Gives the owner a new unsaved upload of content it already holds (instant upload); its path,
   * or undefined.
   */
  async shareOwned(of: UploadOf, md5: string, size: number): Promise<string | undefined> {
    const blob = await this.repo.findOwnedBlob(of.owner, of.library, of.ext, md5, size);
    if (!blob) return undefined;
    const path = newAddress(of.library, of.name, of.ext);
    const taken = await this.repo.db.transaction().execute(async (trx) => {
      const repo = new UploadRepository(trx);
      if (!(await repo.addBlobRefs(blob.id, 1))) return false;
      await repo.insertUpload({ ...this.uploadRow(of, path), blobId: blob.id });
      return true;
    });
    return taken ? path : undefined;
  }

  /**
   * Files a finished session's verified bytes under their content address in storage and records
   * the unsaved upload at a new address of its own, with the session's deletion, only while this instance holds the finish lease.
   */
  async store(session: SessionRow, sha256: string): Promise<string> {
    const me = this.instanceId;
    const staging = stagingOf(session);
    const owner: Owner = { type: session.ownerType, id: session.ownerId };
    const path = newAddress(session.library, session.name, session.ext);
    const upload = this.uploadRow(
      { owner, library: session.library, name: session.name, ext: session.ext },
      path,
    );
    const existing = await this.repo.findBlobBySha(sha256);
    if (existing) {
      await this.leases.fence();
      const shared = await this.repo.db.transaction().execute(async (trx) => {
        const repo = new UploadRepository(trx);
        if (!(await repo.addBlobRefs(existing.id, 1))) return false;
        await repo.insertUpload({ ...upload, blobId: existing.id });
        if (!(await repo.deleteFinishedSession(session.id, me))) throw new LeaseLost();
        return true;
      });
      if (shared) {
        // Left behind if this fails or the process dies here: the orphan sweep frees it.
        await this.storage.abort(staging).catch((error: unknown) => {
          this.log?.warn({ err: error, sessionId: session.id }, 'could not free upload staging');
        });
        return path;
      }
    }
    const key = blobKey(sha256);
    await this.storage.promote(staging, key);
    await this.leases.fence();
    await this.repo.db.transaction().execute(async (trx) => {
      const repo = new UploadRepository(trx);
      const blob = await repo.upsertBlob({
        sha256,
        md5: session.md5,
        size: session.size,
        storageKey: key,
        createdAt: this.clock(),
      });
      await repo.insertUpload({ ...upload, blobId: blob.id });
      if (!(await repo.deleteFinishedSession(session.id, me))) throw new LeaseLost();
    });
    return path;
  }

  /** Deletes a blob nothing points at any more, with its thumbnail. */
  async collect(blobId: number): Promise<void> {
    const blob = await this.repo.getBlob(blobId);
    if (!blob || blob.refCount > 0) return;
    if (!(await this.repo.deleteBlobIfUnreferenced(blob.id))) return;
    await this.storage.delete(blob.storageKey);
    await this.storage.delete(thumbKey(blob.sha256, thumbWidth));
  }
}
