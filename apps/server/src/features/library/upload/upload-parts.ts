import type { UploadConfig } from '@atrium/shared/contract/files';
import type { Instances } from '../../../instances/instances';
import type { Storage } from '../../../storage/index';
import type { SessionRow } from '../library.tables';
import type { BlobStore } from './blob-store';
import type { RunningHashes } from './running-hash';
import type { Log, UploadLeases } from './upload-leases';
import type { UploadRecords } from './upload-records';

/** What the upload engine's parts share (built once by `UploadService`). */
export interface UploadParts {
  repo: UploadRecords;
  storage: Storage;
  instances: Instances;
  clock: () => number;
  log: Log | undefined;
  hashes: RunningHashes;
  leases: UploadLeases;
  blobs: BlobStore;
  config(): Promise<UploadConfig>;
  /** Drops a session and its bytes; the next init starts from chunk 0. */
  resetSession(session: SessionRow): Promise<void>;
}
