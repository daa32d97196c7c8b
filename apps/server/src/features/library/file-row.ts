import type { FileRecord } from '@atrium/shared/contract/files';
import { Limits } from '@atrium/shared';
import { thumbnailOf } from '@atrium/shared/data-paths';
import type { FileRow } from './library.tables';

const imageExtensions: readonly string[] = Limits.imageExtensions;

/** A file's row as the picker lists it (SPEC 3.2), at the address `origin` serves it from. */
export function toRecord(row: FileRow, origin: string): FileRecord {
  const record: FileRecord = {
    id: row.id,
    category: row.library,
    filename: row.name,
    name: row.name,
    path: row.path,
    fullPath: origin + row.path,
    type: row.ext,
    size: row.size,
    categoryId: row.categoryId,
    createdAt: row.createdAt,
    useCount: row.useCount,
  };
  // The blob in the thumbnail's query: a file replaced in place (same address) shows its new
  // preview at once instead of the one the page already holds.
  if (imageExtensions.includes(row.ext))
    record.thumbnail = `${origin}${thumbnailOf(row.path)}?v=${row.blobId}`;
  return record;
}
