import { Limits } from '@atrium/shared/limits';
import type { FileRecord } from '@atrium/shared/contract/files';

export type { FileRecord } from '@atrium/shared/contract/files';

const imageTypes: readonly string[] = Limits.imageExtensions;

export function isImageRecord(record: Pick<FileRecord, 'type'>): boolean {
  return imageTypes.includes(record.type.toLowerCase());
}

/** "PDF" for the "<TYPE> File(s)" label. */
export function typeLabel(record: Pick<FileRecord, 'type'>): string {
  return record.type.toUpperCase();
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}
