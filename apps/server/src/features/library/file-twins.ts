import type { FileRow, FilesDb } from './library.tables';
import type { UploadRecords } from './upload/index';
import { FileRefs } from './file-refs';
import type { LibraryScope } from './files.repository';

/**
 * A file of the category with the same bytes and the same name as an upload being filed (issue 28):
 * filing it again would make a twin nobody can tell apart, so `save` answers the existing file.
 * The same bytes under another name are filed: a copy named otherwise is a person's choice (a
 * logo kept as logo-old.png beside logo.png), and costs nothing, the bytes being stored once.
 */
function findTwin(
  db: FilesDb,
  scope: LibraryScope,
  categoryId: number,
  blobId: number,
  name: string,
): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('ownerType', '=', scope.owner.type)
    .where('ownerId', '=', scope.owner.id)
    .where('library', '=', scope.library)
    .where('categoryId', '=', categoryId)
    .where('blobId', '=', blobId)
    .where('name', '=', name)
    .orderBy('id')
    .executeTakeFirst();
}

/**
 * The twin, in the category it is being filed into, of the upload at `request.path` (its bytes
 * `blobId`; the unsaved uploads there, `pending`), if any. The unsaved uploads it makes needless
 * are let go, unless a place uses their address already (an upload is usable before it is
 * filed): those wait for the sweeper.
 */
export async function twinOf(
  db: FilesDb,
  uploads: UploadRecords,
  scope: LibraryScope,
  request: { path: string; name: string; categoryId: number; blobId: number },
  pending: readonly { id: number }[],
): Promise<FileRow | undefined> {
  const { blobId } = request;
  const twin = await findTwin(db, scope, request.categoryId, blobId, request.name);
  if (!twin || pending.length === 0 || (await new FileRefs(db).countAt(request.path)) > 0)
    return twin;
  await uploads.unsaved.deleteUploads(pending.map((u) => u.id));
  await uploads.blobs.dropBlobRefs(blobId, pending.length);
  return twin;
}
