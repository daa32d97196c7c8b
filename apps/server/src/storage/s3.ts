import { createHash, randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { guardStream } from './outages';
import { copyingMs, s3Bounds, S3Calls, sendingMs, type S3ClientBounds } from './s3-bounds';
import {
  StorageDamagedError,
  StorageNotFoundError,
  type ByteRange,
  type ChunkReceipt,
  type ListedObject,
  type StagingRef,
  type StorageArea,
  type Storage,
  type StoredObject,
} from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** A custom endpoint (MinIO, R2, s3rver...); path-style addressing is used with it. */
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/** S3 refuses multipart parts under 5 MiB, except the last one. */
export const s3MinPartSize = 5 * 1024 * 1024;

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.name === 'NoSuchUpload' ||
    statusOf(error) === 404
  );
}

/** Some S3-compatible stores (s3rver among them) answer 405/501 to ListParts and AbortMultipartUpload. */
function isUnsupported(error: unknown): boolean {
  const status = statusOf(error);
  return status === 405 || status === 501;
}

function toReadable(body: unknown, key: string): Readable {
  if (body instanceof Readable) return body;
  throw new Error(`S3 returned no readable body for ${key}`);
}

/**
 * S3-compatible storage: an upload session is a multipart upload of a staging key and chunk N is
 * part N + 1, so chunks go straight to the store and finishing is CompleteMultipartUpload plus a
 * server-side copy to the content key.
 */
export class S3Storage implements Storage {
  readonly driver = 's3';
  readonly minChunkSize = s3MinPartSize;
  private readonly client: S3Client;
  /** For server-side copies, which may be silent while they run (see `s3Bounds.longIdleMs`). */
  private readonly copyClient: S3Client;
  private readonly bucket: string;
  private readonly calls = new S3Calls();

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = this.newClient(options, this.calls.clientConfig());
    this.copyClient = this.newClient(options, this.calls.longClientConfig());
  }

  private newClient(options: S3StorageOptions, bounds: S3ClientBounds): S3Client {
    return new S3Client({
      ...bounds,
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? {
            credentials: {
              accessKeyId: options.accessKeyId,
              secretAccessKey: options.secretAccessKey,
            },
          }
        : {}),
      // Stores that predate S3's default CRC checksums reject or ignore them; MD5 ETags suffice.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async beginUpload(): Promise<StagingRef> {
    const key = `staging/${randomBytes(16).toString('hex')}`;
    const answer = await this.calls.call((abortSignal) =>
      this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }), {
        abortSignal,
      }),
    );
    if (!answer.UploadId) throw new Error('S3 CreateMultipartUpload answered no UploadId');
    return { key, uploadId: answer.UploadId };
  }

  private uploadIdOf(staging: StagingRef): string {
    if (!staging.uploadId) throw new Error(`staging ${staging.key} has no multipart upload id`);
    return staging.uploadId;
  }

  async writeChunk(
    staging: StagingRef,
    index: number,
    _chunkSize: number,
    data: Buffer,
  ): Promise<ChunkReceipt> {
    try {
      const answer = await this.calls.call(
        (abortSignal) =>
          this.client.send(
            new UploadPartCommand({
              Bucket: this.bucket,
              Key: staging.key,
              UploadId: this.uploadIdOf(staging),
              PartNumber: index + 1,
              Body: data,
              ContentLength: data.length,
              // The store checks the part against it: bytes damaged on the way are refused, not kept
              // (every S3-compatible store honours Content-MD5; the SDK's CRC checksums are not).
              ContentMD5: createHash('md5').update(data).digest('base64'),
            }),
            { abortSignal },
          ),
        sendingMs(data.length),
      );
      if (!answer.ETag) throw new Error('S3 UploadPart answered no ETag');
      return { index, size: data.length, etag: answer.ETag };
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(staging.key);
      if (error instanceof S3ServiceException && error.name === 'BadDigest')
        throw new StorageDamagedError(staging.key);
      throw error;
    }
  }

  readChunk(): Promise<Buffer | undefined> {
    return Promise.resolve(undefined);
  }

  async storedChunks(
    staging: StagingRef,
    _chunkSize: number,
    receipts: readonly ChunkReceipt[],
  ): Promise<number[]> {
    const held = new Map<number, string>();
    let marker: string | undefined;
    try {
      for (;;) {
        const page = await this.calls.call((abortSignal) =>
          this.client.send(
            new ListPartsCommand({
              Bucket: this.bucket,
              Key: staging.key,
              UploadId: this.uploadIdOf(staging),
              MaxParts: 1000,
              PartNumberMarker: marker,
            }),
            { abortSignal },
          ),
        );
        for (const part of page.Parts ?? []) {
          if (part.PartNumber !== undefined && part.ETag) held.set(part.PartNumber - 1, part.ETag);
        }
        if (!page.IsTruncated || !page.NextPartNumberMarker) break;
        marker = page.NextPartNumberMarker;
      }
    } catch (error) {
      if (isNotFound(error)) {
        // Assembled by a finish that was cut short: the one object holds every chunk.
        const assembled = await this.stat(staging.key);
        return assembled ? receipts.map((r) => r.index).sort((a, b) => a - b) : [];
      }
      // Without ListParts the receipts are the best record: each was written after S3 acknowledged the part.
      if (isUnsupported(error)) return receipts.map((r) => r.index).sort((a, b) => a - b);
      throw error;
    }
    return receipts
      .filter((r) => held.get(r.index) === r.etag)
      .map((r) => r.index)
      .sort((a, b) => a - b);
  }

  async assemble(staging: StagingRef, receipts: readonly ChunkReceipt[]): Promise<void> {
    const parts = [...receipts]
      .sort((a, b) => a.index - b.index)
      .map((r) => ({ PartNumber: r.index + 1, ETag: r.etag }));
    const bytes = receipts.reduce((sum, r) => sum + r.size, 0);
    try {
      await this.calls.call(
        (abortSignal) =>
          this.copyClient.send(
            new CompleteMultipartUploadCommand({
              Bucket: this.bucket,
              Key: staging.key,
              UploadId: this.uploadIdOf(staging),
              MultipartUpload: { Parts: parts },
            }),
            { abortSignal },
          ),
        copyingMs(bytes),
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
      // Completed by an earlier attempt that stopped before promoting: the object is there.
      if (!(await this.stat(staging.key))) throw new StorageNotFoundError(staging.key);
    }
  }

  readStaging(staging: StagingRef, range?: ByteRange): Promise<Readable> {
    return this.getObject(staging.key, range, s3Bounds.idleMs);
  }

  async promote(staging: StagingRef, key: string): Promise<void> {
    // Its size bounds the copy's wait (a big object takes the store a while to copy).
    const staged = await this.stat(staging.key);
    if (staged) {
      try {
        await this.calls.call(
          (abortSignal) =>
            this.copyClient.send(
              new CopyObjectCommand({
                Bucket: this.bucket,
                Key: key,
                CopySource: `${this.bucket}/${staging.key}`,
              }),
              { abortSignal },
            ),
          copyingMs(staged.size),
        );
      } catch (error) {
        if (!isNotFound(error)) throw error;
        if (!(await this.stat(key))) throw new StorageNotFoundError(staging.key);
      }
    } else if (!(await this.stat(key))) {
      // Staging gone and no object at the key: not an earlier call's copy that went unrecorded.
      throw new StorageNotFoundError(staging.key);
    }
    await this.delete(staging.key);
  }

  async abort(staging: StagingRef): Promise<void> {
    const uploadId = staging.uploadId;
    if (uploadId) {
      try {
        await this.calls.call((abortSignal) =>
          this.client.send(
            new AbortMultipartUploadCommand({
              Bucket: this.bucket,
              Key: staging.key,
              UploadId: uploadId,
            }),
            { abortSignal },
          ),
        );
      } catch (error) {
        if (!isNotFound(error) && !isUnsupported(error)) throw error;
      }
    }
    // An assembled but never promoted staging object is a plain object by now.
    await this.delete(staging.key);
  }

  /** Serves a stored object: a reader may pause for a while (see `s3Bounds.servedBodyIdleMs`). */
  read(key: string, range?: ByteRange): Promise<Readable> {
    return this.getObject(key, range, s3Bounds.servedBodyIdleMs);
  }

  /**
   * An object's bytes as a stream that fails as unavailable when the store goes silent for
   * `bodyIdleMs` or the answer ends short of its length.
   */
  private async getObject(key: string, range: ByteRange | undefined, bodyIdleMs: number) {
    try {
      const answer = await this.calls.call((abortSignal) =>
        this.client.send(
          new GetObjectCommand({
            Bucket: this.bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
          { abortSignal },
        ),
      );
      const body = toReadable(answer.Body, key);
      // The client's silence time-out, armed on this socket, now counts for the body.
      if ('socket' in body && body.socket instanceof Socket) body.socket.setTimeout(bodyIdleMs);
      return guardStream(body, answer.ContentLength);
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const answer = await this.calls.call((abortSignal) =>
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal }),
      );
      return { size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.calls.call((abortSignal) =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: data,
          ContentType: contentType,
          ContentLength: data.length,
        }),
        { abortSignal },
      ),
    );
  }

  async delete(key: string): Promise<void> {
    try {
      await this.calls.call((abortSignal) =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }), {
          abortSignal,
        }),
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async *list(area: StorageArea): AsyncIterable<ListedObject[]> {
    let token: string | undefined;
    do {
      const page = await this.calls.call((abortSignal) =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: `${area}/`,
            MaxKeys: 1000,
            ContinuationToken: token,
          }),
          { abortSignal },
        ),
      );
      const objects: ListedObject[] = [];
      for (const object of page.Contents ?? []) {
        if (object.Key)
          objects.push({ key: object.Key, modifiedAt: object.LastModified?.getTime() ?? 0 });
      }
      if (objects.length > 0) yield objects;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    if (area === 'staging') yield* this.listUnfinished();
  }

  /** Multipart uploads not assembled yet: their parts cost storage though no object is listed. */
  private async *listUnfinished(): AsyncIterable<ListedObject[]> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await this.calls.call((abortSignal) =>
          this.client.send(
            new ListMultipartUploadsCommand({
              Bucket: this.bucket,
              Prefix: 'staging/',
              KeyMarker: keyMarker,
              UploadIdMarker: uploadIdMarker,
            }),
            { abortSignal },
          ),
        );
      } catch (error) {
        // Stores without the call (s3rver) are left to their own expiry of abandoned uploads.
        if (isUnsupported(error)) return;
        throw error;
      }
      const uploads: ListedObject[] = [];
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId)
          uploads.push({
            key: upload.Key,
            uploadId: upload.UploadId,
            modifiedAt: upload.Initiated?.getTime() ?? 0,
          });
      }
      if (uploads.length > 0) yield uploads;
      if (!page.IsTruncated) return;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  destroy(): void {
    this.client.destroy();
    this.copyClient.destroy();
    this.calls.destroy();
  }
}
