import { md5OfBlob, type Md5Progress } from './md5-core';
import type { Md5WorkerReply, Md5WorkerRequest } from './md5-protocol';

class Md5Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * MD5 of a file off the main thread, so a 2 GiB video does not freeze the page. Where workers do
 * not exist (jsdom in unit tests) the same hashing code runs in place.
 */
export function computeMd5(
  blob: Blob,
  onProgress?: Md5Progress,
  signal?: AbortSignal,
): Promise<string> {
  if (signal?.aborted) return Promise.reject(new Md5Cancelled());
  if (typeof Worker === 'undefined') {
    return md5OfBlob(blob, onProgress, () => signal?.aborted === true).catch((error: unknown) => {
      throw signal?.aborted ? new Md5Cancelled() : error;
    });
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./md5.worker.ts', import.meta.url), { type: 'module' });
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(new Md5Cancelled());
    };
    signal?.addEventListener('abort', onAbort);
    worker.onmessage = (event: MessageEvent<Md5WorkerReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') onProgress?.(reply.done, reply.total);
      else if (reply.type === 'done') {
        finish();
        resolve(reply.md5);
      } else {
        finish();
        reject(new Error(reply.message));
      }
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(event.message || 'worker failed'));
    };
    const request: Md5WorkerRequest = { blob };
    worker.postMessage(request);
  });
}
