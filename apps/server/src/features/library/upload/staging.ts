import type { ChunkReceipt, StagingRef } from '../../../storage/index';
import type { SessionRow } from '../library.tables';

/** Where a session's chunks are staged in storage. */
export function stagingOf(session: SessionRow): StagingRef {
  return { key: session.stagingKey, uploadId: session.stagingUploadId };
}

/** A recorded chunk as the storage knows it. */
export function receiptOf(row: { idx: number; size: number; etag: string }): ChunkReceipt {
  return { index: row.idx, size: row.size, etag: row.etag };
}
