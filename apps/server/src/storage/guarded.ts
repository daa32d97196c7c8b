import type { Readable } from 'node:stream';
import { UnavailableError } from '../http/unavailable';
import { guardStream, storageFailure } from './outages';
import type {
  ByteRange,
  ChunkReceipt,
  ChunkWriter,
  ListedObject,
  StagingRef,
  Storage,
  StorageArea,
  StoredObject,
} from './storage';

export interface GuardOptions {
  /**
   * Longest wait for one call (local disk: a hung mount answers nothing, and a thread of libuv's
   * pool cannot be cancelled, but the request can be answered). Undefined: the driver bounds its
   * own calls (S3: timeouts on silence, so a big part on a slow link is not cut off).
   */
  deadlineMs?: number | undefined;
}

/**
 * A driver whose calls are bounded and whose outages are named (issue 26): a store out of reach
 * or a full disk throws `UnavailableError` ('storage' | 'diskFull'), which every route answers as
 * a retryable refusal (code 1005; 503 + Retry-After for file GETs). Streams it returns fail the
 * same way. Everything else passes through unchanged.
 */
export class GuardedStorage implements Storage {
  readonly driver: Storage['driver'];
  readonly minChunkSize: number;
  readonly openChunkWriter?: Storage['openChunkWriter'];
  readonly syncStaging?: Storage['syncStaging'];

  constructor(
    private readonly inner: Storage,
    private readonly options: GuardOptions = {},
  ) {
    this.driver = inner.driver;
    this.minChunkSize = inner.minChunkSize;
    // Optional abilities stay optional: the upload engine asks whether the driver has them.
    const open = inner.openChunkWriter?.bind(inner);
    if (open)
      this.openChunkWriter = async (staging, index, chunkSize) =>
        this.writer(
          await this.bound(
            () => open(staging, index, chunkSize),
            (writer) => writer.close(false).catch(() => undefined),
          ),
        );
    const sync = inner.syncStaging?.bind(inner);
    if (sync) this.syncStaging = (staging) => this.bound(() => sync(staging));
  }

  /**
   * Runs a call within the deadline, its failures named. `late`: what to do with an answer that
   * comes after the deadline (a stream or a file handle nobody will use must be let go).
   */
  private async bound<T>(call: () => Promise<T>, late?: (value: T) => unknown): Promise<T> {
    const deadlineMs = this.options.deadlineMs;
    const running = call();
    if (deadlineMs === undefined) {
      try {
        return await running;
      } catch (error) {
        throw storageFailure(error);
      }
    }
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(new UnavailableError('storage', new Error(`no answer within ${deadlineMs} ms`)));
      }, deadlineMs);
    });
    // The call may still settle after the deadline: nobody waits for it then.
    running.then(
      (value) => {
        if (expired) late?.(value);
      },
      () => undefined,
    );
    try {
      return await Promise.race([running, deadline]);
    } catch (error) {
      throw storageFailure(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private writer(inner: ChunkWriter): ChunkWriter {
    return {
      write: (data, at) => this.bound(() => inner.write(data, at)),
      close: (kept) => this.bound(() => inner.close(kept)),
    };
  }

  beginUpload(): Promise<StagingRef> {
    return this.bound(() => this.inner.beginUpload());
  }

  writeChunk(
    staging: StagingRef,
    index: number,
    chunkSize: number,
    data: Buffer,
  ): Promise<ChunkReceipt> {
    return this.bound(() => this.inner.writeChunk(staging, index, chunkSize, data));
  }

  readChunk(
    staging: StagingRef,
    receipt: ChunkReceipt,
    chunkSize: number,
  ): Promise<Buffer | undefined> {
    return this.bound(() => this.inner.readChunk(staging, receipt, chunkSize));
  }

  storedChunks(
    staging: StagingRef,
    chunkSize: number,
    receipts: readonly ChunkReceipt[],
  ): Promise<number[]> {
    return this.bound(() => this.inner.storedChunks(staging, chunkSize, receipts));
  }

  assemble(staging: StagingRef, receipts: readonly ChunkReceipt[]): Promise<void> {
    return this.bound(() => this.inner.assemble(staging, receipts));
  }

  async readStaging(staging: StagingRef, range?: ByteRange): Promise<Readable> {
    return guardStream(
      await this.bound(
        () => this.inner.readStaging(staging, range),
        (stream) => stream.destroy(),
      ),
    );
  }

  promote(staging: StagingRef, key: string): Promise<void> {
    return this.bound(() => this.inner.promote(staging, key));
  }

  abort(staging: StagingRef): Promise<void> {
    return this.bound(() => this.inner.abort(staging));
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    return guardStream(
      await this.bound(
        () => this.inner.read(key, range),
        (stream) => stream.destroy(),
      ),
    );
  }

  stat(key: string): Promise<StoredObject | undefined> {
    return this.bound(() => this.inner.stat(key));
  }

  put(key: string, data: Buffer, contentType: string): Promise<void> {
    return this.bound(() => this.inner.put(key, data, contentType));
  }

  delete(key: string): Promise<void> {
    return this.bound(() => this.inner.delete(key));
  }

  async *list(area: StorageArea): AsyncIterable<ListedObject[]> {
    try {
      yield* this.inner.list(area);
    } catch (error) {
      throw storageFailure(error);
    }
  }
}
