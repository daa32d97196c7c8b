/// <reference lib="webworker" />
import { md5OfBlob } from './md5-core';
import type { Md5WorkerReply, Md5WorkerRequest } from './md5-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<Md5WorkerRequest>) => {
  const post = (reply: Md5WorkerReply) => scope.postMessage(reply);
  md5OfBlob(event.data.blob, (done, total) => post({ type: 'progress', done, total })).then(
    (md5) => post({ type: 'done', md5 }),
    (error: unknown) =>
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
};
