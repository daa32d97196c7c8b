export interface Md5WorkerRequest {
  blob: Blob;
}

export type Md5WorkerReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; md5: string }
  | { type: 'error'; message: string };
