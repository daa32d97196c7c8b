import { GuardedStorage } from './guarded';
import { LocalStorage } from './local';
import { S3Storage, type S3StorageOptions } from './s3';
import type { Storage } from './storage';

export type StorageOptions =
  { driver: 'local'; root: string } | ({ driver: 's3' } & S3StorageOptions);

/**
 * Longest a local disk call may take (issue 26: during an outage a storage call answers within
 * 5 s); a healthy disk answers each one (a write of at most a chunk) in milliseconds.
 */
export const localDeadlineMs = 4_500;

/** The configured driver, its calls bounded and its outages named (see `GuardedStorage`). */
export function createStorage(options: StorageOptions): Storage {
  return options.driver === 'local'
    ? new GuardedStorage(new LocalStorage(options.root), { deadlineMs: localDeadlineMs })
    : // S3 bounds its own calls, on silence rather than length (see s3-bounds.ts).
      new GuardedStorage(new S3Storage(options));
}

export * from './storage';
export { readAll } from './read-all';
