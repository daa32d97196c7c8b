import type { Library } from '@atrium/shared/contract/files';
import type { Insertable } from 'kysely';
import { newestPathIn } from '../file-listing.queries';
import {
  uploadColumns,
  type FilesDb,
  type Owner,
  type UploadRow,
  type UploadsTable,
} from '../library.tables';

/**
 * Uploads not saved to the library yet (Kysely only): what `save` files, or the sweeper lets go
 * of once they are old.
 */
export class UnsavedUploadsRepository {
  constructor(readonly db: FilesDb) {}

  async insertUpload(row: Insertable<UploadsTable>): Promise<void> {
    await this.db.insertInto('uploads').values(row).execute();
  }

  ownedUploads(owner: Owner, library: Library, path: string): Promise<UploadRow[]> {
    return this.db
      .selectFrom('uploads')
      .select(uploadColumns)
      .where('ownerType', '=', owner.type)
      .where('ownerId', '=', owner.id)
      .where('library', '=', library)
      .where('path', '=', path)
      .execute();
  }

  async deleteUploads(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('uploads').where('id', 'in', ids).execute();
  }

  expiredUploads(before: number, limit: number): Promise<UploadRow[]> {
    return this.db
      .selectFrom('uploads')
      .select(uploadColumns)
      .where('createdAt', '<', before)
      .limit(limit)
      .execute();
  }

  /** The newest address of the owner's unsaved uploads of this blob under this extension. */
  async newestPathOf(
    owner: Owner,
    library: Library,
    blobId: number,
    ext: string,
  ): Promise<string | undefined> {
    return newestPathIn(this.db, 'uploads', { ...owner, library }, blobId, ext);
  }
}
