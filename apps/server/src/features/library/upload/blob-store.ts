import type { Library } from '@atrium/shared/contract/files';
import type { BlobRow, Owner, SessionRow } from '../library.tables';
import { Readable } from 'node:stream';
import {
  blobKey,
  newBlobName,
  StorageNotFoundError,
  thumbKey,
  type Storage,
} from '../../../storage/index';
import { stagingOf } from './staging';
import { LeaseLost, type Log, type UploadLeases } from './upload-leases';
import { newAddress } from './upload-rules';
import { uploadRecords, type UploadRecords } from './upload-records';

/** Width of library thumbnails. */
export const thumbWidth = 240;

/** What an upload is recorded as, less the blob it points at. */
interface UploadOf {
  owner: Owner;
  library: Library;
  name: string;
  ext: string;
}

/**
 * How a finished upload's bytes are stored: as the client sent them, or without their privacy
 * metadata (see `stripMetadata`).
 */
export interface StoredForm {
  /** Whether the stored bytes are the client's without their privacy metadata. */
  stripped: boolean;
  /**
   * The bytes to store when they are not the staging bytes as they are (undefined: the staging
   * bytes are stored). Asked only while the staging bytes are there.
   */
  bytes: () => Promise<Buffer | undefined>;
}

/** Whether two streams carry the same bytes (read side by side, stopped at the first difference). */
export async function sameBytes(a: Readable, b: Readable): Promise<boolean> {
  const left = a[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const right = b[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let x: Buffer = Buffer.alloc(0);
  let y: Buffer = Buffer.alloc(0);
  let xDone = false;
  let yDone = false;
  try {
    for (;;) {
      if (x.length === 0 && !xDone) {
        const next = await left.next();
        if (next.done) xDone = true;
        else x = next.value;
      }
      if (y.length === 0 && !yDone) {
        const next = await right.next();
        if (next.done) yDone = true;
        else y = next.value;
      }
      if (x.length === 0 && y.length === 0) {
        if (xDone && yDone) return true;
        continue;
      }
      if (x.length === 0 || y.length === 0) {
        if ((x.length === 0 && xDone) || (y.length === 0 && yDone)) return false;
        continue;
      }
      const n = Math.min(x.length, y.length);
      if (!x.subarray(0, n).equals(y.subarray(0, n))) return false;
      x = x.subarray(n);
      y = y.subarray(n);
    }
  } finally {
    a.destroy();
    b.destroy();
  }
}

/**
 * Reference-counted blobs (DESIGN 6, README "Uploads"): each upload points at one; an upload whose
 * bytes equal a stored blob's (same MD5 and size as sent, then the bytes to store compared byte
 * for byte, so a crafted MD5 collision is stored apart) shares it; a blob nothing points at any
 * more is deleted. A blob's `md5` and `sentSize` are those of the bytes the client sent, `size`
 * that of the bytes stored (README "What the MD5 covers").
 */
export class BlobStore {
  constructor(
    private readonly repo: UploadRecords,
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
   * or undefined. `stripped`: the blob must be stored in that form (see `findOwnedBlob`).
   */
  async shareOwned(
    of: UploadOf,
    md5: string,
    size: number,
    stripped: boolean | undefined,
  ): Promise<string | undefined> {
    const blob = await this.repo.blobs.findOwnedBlob(
      of.owner,
      of.library,
      of.ext,
      md5,
      size,
      stripped,
    );
    if (!blob) return undefined;
    const path =
      (await this.repo.paths.trashedPathOf(of.owner, of.library, blob.id, of.ext)) ??
      newAddress(of.library, of.name, of.ext);
    const taken = await this.repo.db.transaction().execute(async (trx) => {
      const repo = uploadRecords(trx);
      if (!(await repo.blobs.addBlobRefs(blob.id, 1))) return false;
      await repo.unsaved.insertUpload({ ...this.uploadRow(of, path), blobId: blob.id });
      return true;
    });
    return taken ? path : undefined;
  }

  /**
   * The name of a stored blob whose bytes equal the bytes `session` will store (`bytes`, or its
   * verified staging bytes), or a new name for them. Only blobs stored from bytes with the same
   * MD5 and size as sent are read, and only when there are some.
   */
  async nameFor(session: SessionRow, bytes: Buffer | undefined): Promise<string> {
    const staging = stagingOf(session);
    const read = bytes
      ? () => Promise.resolve(Readable.from([bytes]))
      : () => this.storage.readStaging(staging);
    for (const blob of await this.repo.blobs.blobsLike(session.md5, session.size)) {
      if (await this.equalTo(blob, read)) return blob.name;
    }
    return newBlobName();
  }

  private async equalTo(blob: BlobRow, read: () => Promise<Readable>): Promise<boolean> {
    const stored = await this.storage.stat(blob.storageKey);
    if (stored?.size !== blob.size) return false;
    return sameBytes(await read(), await this.storage.read(blob.storageKey));
  }

  /**
   * Records the unsaved upload of a finished session at a new address of its own, pointing at the
   * blob `name` (verified: see `nameFor`): an existing blob gains a reference and the staging
   * bytes go; otherwise they move to the blob's key, or the bytes of `form` are written there.
   * With the session's deletion, only while this instance holds the finish lease.
   */
  async store(session: SessionRow, name: string, form: StoredForm): Promise<string> {
    const me = this.instanceId;
    const staging = stagingOf(session);
    const owner: Owner = { type: session.ownerType, id: session.ownerId };
    const path = newAddress(session.library, session.name, session.ext);
    const upload = this.uploadRow(
      { owner, library: session.library, name: session.name, ext: session.ext },
      path,
    );
    const existing = await this.repo.blobs.findBlobByName(name);
    if (existing) {
      await this.leases.fence();
      const shared = await this.repo.db.transaction().execute(async (trx) => {
        const repo = uploadRecords(trx);
        if (!(await repo.blobs.addBlobRefs(existing.id, 1))) return false;
        await repo.unsaved.insertUpload({ ...upload, blobId: existing.id });
        if (!(await repo.sessions.deleteFinishedSession(session.id, me))) throw new LeaseLost();
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
    const staged = (await this.storage.stat(staging.key)) !== undefined;
    let bytes: Buffer | undefined;
    if (staged) {
      bytes = await form.bytes();
      // Not moved yet: to a key no other blob has had (the blob `name` named may be an equal one
      // that lost its last reference meanwhile, its key being deleted). Recorded first, so a
      // finish cut short after the move finds the bytes there (and the sweep leaves them).
      name = newBlobName();
      await this.leases.fence();
      if (!(await this.repo.sessions.saveVerified(session.id, me, name))) throw new LeaseLost();
    }
    const key = blobKey(name);
    if (bytes) {
      // Stored apart from the staging bytes, which go once they are in place.
      await this.storage.put(key, bytes, 'application/octet-stream');
      await this.storage.abort(staging);
    } else {
      // Also completes a finish cut short after the stored bytes were put (staging gone).
      await this.storage.promote(staging, key);
    }
    let size = bytes ? bytes.length : session.size;
    if (!staged) {
      const stored = await this.storage.stat(key);
      if (!stored) throw new StorageNotFoundError(key);
      size = stored.size;
    }
    await this.leases.fence();
    await this.repo.db.transaction().execute(async (trx) => {
      const repo = uploadRecords(trx);
      const blobId = await repo.blobs.insertBlob({
        name,
        md5: session.md5,
        size,
        sentSize: session.size,
        stripped: form.stripped ? 1 : 0,
        storageKey: key,
        createdAt: this.clock(),
      });
      await repo.unsaved.insertUpload({ ...upload, blobId });
      if (!(await repo.sessions.deleteFinishedSession(session.id, me))) throw new LeaseLost();
    });
    return path;
  }

  /** Deletes a blob nothing points at any more, with its thumbnail. */
  async collect(blobId: number): Promise<void> {
    const blob = await this.repo.blobs.getBlob(blobId);
    if (!blob || blob.refCount > 0) return;
    if (!(await this.repo.blobs.deleteBlobIfUnreferenced(blob.id))) return;
    await this.storage.delete(blob.storageKey);
    await this.storage.delete(thumbKey(blob.name, thumbWidth));
  }
}
