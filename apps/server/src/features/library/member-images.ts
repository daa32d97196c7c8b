import { isImageDataPath, parseDataPath } from '@atrium/shared/data-paths';
import type { Db } from '../../db/index';
import { FilesRepository } from './files.repository';
import { filesDb } from './library.tables';
import { readAll, type Storage } from '../../storage/index';
import { BlobsRepository } from './blobs.repository';

/** Bigger images are not sent to a model: providers refuse them and they cost a fortune. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const mimeOf: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Images a member attaches: only from their own image library, sent inline to the model. */
export interface ImageAccess {
  owns(memberId: number, path: string): Promise<boolean>;
  /** A data: URL of the image, or undefined when it is gone or too big. */
  dataUrl(path: string): Promise<string | undefined>;
}

/** The member's image library (files feature) and the blob store behind it. */
export function libraryImages(db: Db, storage: Storage): ImageAccess {
  const files = new FilesRepository(filesDb(db));
  const blobs = new BlobsRepository(filesDb(db));
  return {
    async owns(memberId, path) {
      if (!isImageDataPath(path)) return false;
      return files.ownsPath({ owner: { type: 'member', id: memberId }, library: 'image' }, path);
    },
    async dataUrl(path) {
      const parsed = parseDataPath(path);
      const mime = parsed ? mimeOf[parsed.ext] : undefined;
      const blob = mime ? await blobs.blobAt([path]) : undefined;
      if (!blob) return undefined;
      const key = blob.storageKey;
      const stat = await storage.stat(key);
      if (!stat || stat.size > MAX_IMAGE_BYTES) return undefined;
      const bytes = await readAll(await storage.read(key), MAX_IMAGE_BYTES);
      return bytes ? `data:${mime};base64,${bytes.toString('base64')}` : undefined;
    },
  };
}
