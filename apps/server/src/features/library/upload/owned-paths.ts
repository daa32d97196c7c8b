import type { Library } from '@atrium/shared/contract/files';
import { FilesRepository } from '../files.repository';
import type { FilesDb, Owner } from '../library.tables';
import { TrashRepository } from '../trash.repository';
import { UnsavedUploadsRepository } from './unsaved-uploads.repository';

/**
 * Where an owner already keeps a blob: the address an upload of the same content answers
 * (instant upload), asked of the unsaved uploads, the library's files and its trash.
 */
export class OwnedPaths {
  private readonly unsaved: UnsavedUploadsRepository;
  private readonly files: FilesRepository;
  private readonly trash: TrashRepository;

  constructor(db: FilesDb) {
    this.unsaved = new UnsavedUploadsRepository(db);
    this.files = new FilesRepository(db);
    this.trash = new TrashRepository(db);
  }

  /** The newest address where the owner keeps this blob under this extension (upload or file). */
  async ownedPathOf(
    owner: Owner,
    library: Library,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    return (
      (await this.unsaved.newestPathOf(owner, library, blobId, ext)) ??
      (await this.files.newestPathOf({ owner, library }, blobId, ext))
    );
  }

  /**
   * The address of the owner's trashed file with this blob, when the owner keeps it nowhere else:
   * an upload of the same content gets it back (and `save` takes it out of the trash), so the
   * places that used it show it again instead of a duplicate appearing.
   */
  async trashedPathOf(
    owner: Owner,
    library: Library,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    if (await this.ownedPathOf(owner, library, blobId, ext)) return undefined;
    return this.trash.newestPathOf({ owner, library }, blobId, ext);
  }
}
