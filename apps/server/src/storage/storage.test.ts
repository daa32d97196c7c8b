import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local';
import { S3Storage, s3MinPartSize } from './s3';
import { startS3rver, type RunningS3 } from './s3rver.testing';
import {
  blobKey,
  StorageNotFoundError,
  thumbKey,
  type ChunkReceipt,
  type Storage,
} from './storage';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream)
    parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface Driver {
  name: string;
  /** False for s3rver, which answers 405 to ListParts and AbortMultipartUpload. */
  verifiesParts: boolean;
  setup(): Promise<Storage>;
  teardown(): Promise<void>;
}

let localRoot = '';
let s3: RunningS3 | undefined;
let s3Storage: S3Storage | undefined;

const drivers: Driver[] = [
  {
    name: 'local',
    verifiesParts: true,
    async setup() {
      localRoot = await mkdtemp(join(tmpdir(), 'atrium-local-storage-'));
      return new LocalStorage(localRoot);
    },
    async teardown() {
      await rm(localRoot, { recursive: true, force: true });
    },
  },
  {
    name: 's3 (s3rver)',
    verifiesParts: false,
    async setup() {
      s3 = await startS3rver();
      s3Storage = new S3Storage(s3.options);
      return s3Storage;
    },
    async teardown() {
      s3Storage?.destroy();
      await s3?.stop();
    },
  },
];

// Chunk size S3 accepts for every part but the last; the same for both drivers keeps one suite.
const chunkSize = s3MinPartSize;

describe.each(drivers)('storage behaviour: $name', (driver) => {
  let storage: Storage;
  const file = Buffer.concat([randomBytes(chunkSize), randomBytes(chunkSize), randomBytes(1234)]);
  const chunkOf = (i: number) =>
    file.subarray(i * chunkSize, Math.min(file.length, (i + 1) * chunkSize));

  beforeAll(async () => {
    storage = await driver.setup();
  });
  afterAll(async () => {
    await driver.teardown();
  });

  it('assembles chunks written out of order into the exact file and promotes it to its content key', async () => {
    const staging = await storage.beginUpload();
    const receipts: ChunkReceipt[] = [];
    for (const i of [2, 0, 1])
      receipts.push(await storage.writeChunk(staging, i, chunkSize, chunkOf(i)));
    expect(receipts.map((r) => [r.index, r.size])).toEqual([
      [2, 1234],
      [0, chunkSize],
      [1, chunkSize],
    ]);
    expect(await storage.storedChunks(staging, chunkSize, receipts)).toEqual([0, 1, 2]);

    await storage.assemble(staging, receipts);
    expect(sha(await bytesOf(await storage.readStaging(staging)))).toBe(sha(file));
    const tail = await bytesOf(
      await storage.readStaging(staging, { start: file.length - 10, end: file.length - 1 }),
    );
    expect(tail.equals(file.subarray(file.length - 10))).toBe(true);

    const key = blobKey(sha(file));
    await storage.promote(staging, key);
    expect(await storage.stat(key)).toEqual({ size: file.length });
    expect(await storage.stat(staging.key)).toBeUndefined();
    expect(sha(await bytesOf(await storage.read(key)))).toBe(sha(file));

    const across = await bytesOf(
      await storage.read(key, { start: chunkSize - 3, end: chunkSize + 2 }),
    );
    expect(across.equals(file.subarray(chunkSize - 3, chunkSize + 3))).toBe(true);

    await storage.delete(key);
    expect(await storage.stat(key)).toBeUndefined();
    await storage.delete(key);
  });

  it('takes a re-sent chunk without changing the result', async () => {
    const staging = await storage.beginUpload();
    const first = await storage.writeChunk(staging, 0, chunkSize, chunkOf(0));
    const again = await storage.writeChunk(staging, 0, chunkSize, chunkOf(0));
    const second = await storage.writeChunk(staging, 1, chunkSize, chunkOf(1));
    const last = await storage.writeChunk(staging, 2, chunkSize, chunkOf(2));
    expect(again).toEqual(first);
    await storage.assemble(staging, [again, second, last]);
    expect(sha(await bytesOf(await storage.readStaging(staging)))).toBe(sha(file));
    await storage.abort(staging);
    expect(await storage.stat(staging.key)).toBeUndefined();
  });

  it('counts only the chunks it really holds', async () => {
    const staging = await storage.beginUpload();
    const held = await storage.writeChunk(staging, 0, chunkSize, chunkOf(0));
    const claimed: ChunkReceipt = {
      index: 1,
      size: chunkSize,
      etag: held.etag === '' ? '' : '"0000"',
    };
    const stored = await storage.storedChunks(staging, chunkSize, [held, claimed]);
    expect(stored).toEqual(driver.verifiesParts ? [0] : [0, 1]);
    await storage.abort(staging);
    if (driver.verifiesParts)
      expect(await storage.storedChunks(staging, chunkSize, [held])).toEqual([]);
    await storage.abort(staging);
  });

  it('reports a missing object as not found', async () => {
    const missing = blobKey('0'.repeat(64));
    expect(await storage.stat(missing)).toBeUndefined();
    await expect(storage.read(missing)).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it('stores and replaces small whole objects such as thumbnails', async () => {
    const key = thumbKey(sha(file), 240);
    await storage.put(key, Buffer.from('first'), 'image/webp');
    await storage.put(key, Buffer.from('second'), 'image/webp');
    expect((await bytesOf(await storage.read(key))).toString()).toBe('second');
    await storage.delete(key);
  });
});

describe('local storage paths', () => {
  it('refuses keys it did not generate and leaves nothing behind a failed write', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atrium-local-keys-'));
    const storage = new LocalStorage(root);
    await expect(storage.read('blobs/../../etc/passwd')).rejects.toThrow(/invalid storage key/);
    await expect(storage.put('../outside', Buffer.from('x'), 'text/plain')).rejects.toThrow(
      /invalid storage key/,
    );
    await expect(
      storage.writeChunk({ key: 'staging/never-begun', uploadId: null }, 0, 4, Buffer.from('abcd')),
    ).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await readdir(root)).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });

  it('writes chunk N at offset N x chunkSize of one staging file', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atrium-local-offset-'));
    const storage = new LocalStorage(root);
    const staging = await storage.beginUpload();
    await storage.writeChunk(staging, 1, 4, Buffer.from('efgh'));
    await storage.writeChunk(staging, 2, 4, Buffer.from('ij'));
    await storage.writeChunk(staging, 0, 4, Buffer.from('abcd'));
    expect((await bytesOf(await storage.readStaging(staging))).toString()).toBe('abcdefghij');
    expect(await readdir(join(root, 'staging'))).toHaveLength(1);
    await rm(root, { recursive: true, force: true });
  });
});
