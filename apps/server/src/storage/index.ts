import { LocalStorage } from './local';
import { S3Storage, type S3StorageOptions } from './s3';
import type { Storage } from './storage';

export type StorageOptions =
  { driver: 'local'; root: string } | ({ driver: 's3' } & S3StorageOptions);

export function createStorage(options: StorageOptions): Storage {
  return options.driver === 'local' ? new LocalStorage(options.root) : new S3Storage(options);
}

export * from './storage';
