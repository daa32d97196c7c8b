import type { FilesDb } from '../library.tables';
import { BlobsRepository } from '../blobs.repository';
import { ChunksRepository } from './chunks.repository';
import { OwnedPaths } from './owned-paths';
import { SessionsRepository } from './sessions.repository';
import { UnsavedUploadsRepository } from './unsaved-uploads.repository';

/** The repositories the upload engine reads and writes, on one database handle (or transaction). */
export interface UploadRecords {
  db: FilesDb;
  sessions: SessionsRepository;
  chunks: ChunksRepository;
  blobs: BlobsRepository;
  unsaved: UnsavedUploadsRepository;
  paths: OwnedPaths;
}

export function uploadRecords(db: FilesDb): UploadRecords {
  return {
    db,
    sessions: new SessionsRepository(db),
    chunks: new ChunksRepository(db),
    blobs: new BlobsRepository(db),
    unsaved: new UnsavedUploadsRepository(db),
    paths: new OwnedPaths(db),
  };
}
