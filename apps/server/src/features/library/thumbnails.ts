import sharp from 'sharp';
import { readAll, StorageNotFoundError, thumbKey, type Storage } from '../../storage/index';
import { thumbWidth } from './upload/index';

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
      return await readAll(await this.storage.read(key));
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
    const source = await readAll(await this.storage.read(blobKey));
    const thumb = await sharp(source, { animated: false })
      .rotate()
      .resize({ width: thumbWidth, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    await this.storage.put(key, thumb, 'image/webp');
    return thumb;
  }
}
