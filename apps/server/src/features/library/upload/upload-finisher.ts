import type { ChunkResponse } from '@atrium/shared/contract/files';
import { ApiError, message } from '../../../http/envelope';
import { readAll, StorageNotFoundError } from '../../../storage/index';
import type { SessionRow } from '../library.tables';
import type { StoredForm } from './blob-store';
import { checkStagedContent, contentRefusal } from './content-check';
import { receiptOf, stagingOf } from './staging';
import { MalformedImage, stripMetadata } from './strip-metadata/index';
import { LeaseLost } from './upload-leases';
import type { UploadParts } from './upload-parts';
import { retryUpload, stripsIn } from './upload-rules';

/**
 * The answer to an image whose metadata could not be read to be removed; where it is broken is
 * told in `data.detail` (for the technical reader).
 */
export function unreadableImage(error: MalformedImage): ApiError {
  return contentRefusal(message('files.imageDamaged'), { detail: error.message });
}

/**
 * Finishing an upload whose chunks are all held: the chunks assembled, the whole file verified
 * (MD5, content against its extension), the bytes stored (without their privacy metadata where
 * the library strips them) and the upload recorded.
 */
export class UploadFinisher {
  constructor(private readonly parts: UploadParts) {}

  /**
   * Finishes an upload whose chunks are all held: verifies it, records the verified content
   * address, moves the bytes there and records the upload. Each step can be taken again: a finish
   * cut short by a crash is completed by the next try, on any instance, once the lease of the
   * dead one has lapsed.
   */
  async finish(held: SessionRow, origin: string): Promise<ChunkResponse> {
    if (!(await this.parts.leases.claimFinish(held.id)))
      throw new ApiError(message('files.beingFinished'));
    const session = (await this.parts.repo.sessions.getSession(held.id)) ?? held;
    try {
      const verified = session.verifiedBlob
        ? { blob: session.verifiedBlob, form: await this.storedForm(session) }
        : await this.verify(session);
      const path = await this.parts.blobs.store(session, verified.blob, verified.form);
      this.parts.hashes.forget(session.id);
      return {
        chunkUploaded: session.chunks,
        chunks: session.chunks,
        data: { filename: session.name, size: session.size },
        path,
        fullPath: origin + path,
      };
    } catch (error) {
      if (error instanceof StorageNotFoundError) {
        await this.parts.resetSession(session);
        throw retryUpload(message('files.uploadGone'));
      }
      if (error instanceof MalformedImage) {
        await this.parts.resetSession(session);
        throw unreadableImage(error);
      }
      // Nothing when the session was dropped or the lease taken over.
      await this.parts.leases.releaseFinish(session.id);
      throw error;
    }
  }

  /**
   * How the verified bytes of `session` are stored: without their privacy metadata when its
   * library strips its type (issue 17), read from staging and rewritten once, when first asked.
   */
  private async storedForm(session: SessionRow): Promise<StoredForm> {
    const stripped = stripsIn(await this.parts.config(), session.library, session.ext) === true;
    if (!stripped) return { stripped, bytes: () => Promise.resolve(undefined) };
    let rewritten: Promise<Buffer | undefined> | undefined;
    const bytes = () =>
      (rewritten ??= (async () => {
        const staging = stagingOf(session);
        const sent = await readAll(await this.parts.storage.readStaging(staging));
        const out = stripMetadata(sent, session.ext);
        return out === sent ? undefined : out;
      })());
    return { stripped, bytes };
  }

  /**
   * Assembles the chunks and checks the whole file: MD5 against the declared one (the running
   * hash continued over whatever was not folded yet), its content against its extension. The
   * bytes to store follow (an image without its privacy metadata, see `storedForm`). Records and
   * answers the blob they go to, a stored blob with the same bytes or a new one, and their form.
   */
  private async verify(session: SessionRow): Promise<{ blob: string; form: StoredForm }> {
    const staging = stagingOf(session);
    const receipts = (await this.parts.repo.chunks.listChunks(session.id)).map(receiptOf);
    await this.parts.storage.assemble(staging, receipts);
    await this.parts.hashes.settle(session);
    const hashed = (await this.parts.repo.sessions.getSession(session.id)) ?? session;
    const md5 = await this.parts.hashes.digestFile(hashed, (from) =>
      this.parts.storage.readStaging(staging, { start: from, end: session.size - 1 }),
    );
    if (md5 !== session.md5) {
      await this.parts.resetSession(session);
      throw retryUpload(message('files.md5Mismatch'));
    }
    const problem = await checkStagedContent(session, staging, this.parts.storage);
    if (problem) {
      await this.parts.resetSession(session);
      throw contentRefusal(problem);
    }
    const form = await this.storedForm(session);
    let bytes: Buffer | undefined;
    try {
      bytes = await form.bytes();
    } catch (error) {
      if (!(error instanceof MalformedImage)) throw error;
      await this.parts.resetSession(session);
      throw unreadableImage(error);
    }
    const blob = await this.parts.blobs.nameFor(session, bytes);
    await this.parts.leases.fence();
    if (!(await this.parts.repo.sessions.saveVerified(session.id, this.parts.instances.id, blob)))
      throw new LeaseLost();
    return { blob, form };
  }
}
