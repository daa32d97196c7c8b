import type { FilesDb } from './library.tables';

/** What serving a trashed file needs of its row. */
export interface TrashedFileRef {
  id: number;
  blobId: number;
  name: string;
  ext: string;
}

/** Trashed file `id`, whoever's trash holds it (its signed address already proved the right). */
export function trashedFile(db: FilesDb, id: number): Promise<TrashedFileRef | undefined> {
  return db
    .selectFrom('trashedFiles')
    .select(['id', 'blobId', 'name', 'ext'])
    .where('id', '=', id)
    .executeTakeFirst();
}
