import sharp from 'sharp';
import { StorageNotFoundError, thumbKey, type Storage } from '../../storage/index';
import { thumbWidth } from './upload/index';

async function readAll(storage: Storage, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of await storage.read(key)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/**
 * Grid thumbnails: made once per blob with sharp (240 px wide WebP) and kept in storage next to
 * the blobs, so later requests only read them. Concurrent first requests share one rendering.
 */
export class Thumbnails {
  private readonly pending = new Map<string, Promise<Buffer>>();

  constructor(private readonly storage: Storage) {}

  async get(blobName: string, blobKey: string): Promise<Buffer> {
    const key = thumbKey(blobName, thumbWidth);
    try {
      return await readAll(this.storage, key);
    } catch (error) {
      if (!(error instanceof StorageNotFoundError)) throw error;
    }
    let job = this.pending.get(key);
    if (!job) {
      job = this.render(blobKey, key).finally(() => this.pending.delete(key));
      this.pending.set(key, job);
    }
    return job;
  }

  private async render(blobKey: string, key: string): Promise<Buffer> {
    const source = await readAll(this.storage, blobKey);
    const thumb = await sharp(source, { animated: false })
      .rotate()
      .resize({ width: thumbWidth, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    await this.storage.put(key, thumb, 'image/webp');
    return thumb;
  }
}
