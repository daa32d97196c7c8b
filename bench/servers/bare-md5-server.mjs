// A peer of the upload bench: the bare server (bare-server.mjs), verifying as Atrium must. It
// writes each request body at the offset the query names, into one file per upload, and folds the
// bytes into the upload's running MD5 on a thread of its own as they arrive (node's MD5, in
// order: the client sends the chunks one after another, each answered once written, its hash
// running on behind); the request with `md5` in its query waits for the hash and checks the
// whole file against it. It stands for the least any MD5-verifying server costs on this machine.
import { Worker } from 'node:worker_threads';
import { closeSync, createWriteStream, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveBench } from './serve.mjs';

const dir = mkdtempSync(join(tmpdir(), 'atrium-bench-bare-md5-'));

// The hash thread: `update` messages carry the bytes (transferred), `digest` answers the MD5.
const hasher = new Worker(
  `const { parentPort } = require('node:worker_threads');
   const { createHash } = require('node:crypto');
   const hashes = new Map();
   parentPort.on('message', (m) => {
     if (m.op === 'start') hashes.set(m.id, createHash('md5'));
     else if (m.op === 'update') hashes.get(m.id).update(new Uint8Array(m.bytes));
     else {
       parentPort.postMessage({ id: m.id, md5: hashes.get(m.id).digest('hex') });
       hashes.delete(m.id);
     }
   });`,
  { eval: true },
);
const digests = new Map();
hasher.on('message', ({ id, md5 }) => {
  digests.get(id)?.(md5);
  digests.delete(id);
});
/** Bytes are handed to the thread in pieces of about this size (one copy, then transferred). */
const batchBytes = 1024 * 1024;
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const id = (url.searchParams.get('id') ?? 'upload').replace(/[^a-z0-9]/gi, '');
  const file = join(dir, id);
  if (req.method === 'DELETE') {
    rmSync(file, { force: true });
    res.end('{"code":0}');
    return;
  }
  const offset = Number(url.searchParams.get('offset') ?? 0);
  if (offset === 0) {
    closeSync(openSync(file, 'w'));
    hasher.postMessage({ op: 'start', id });
  }
  let batch = [];
  let batched = 0;
  const flush = () => {
    if (batched === 0) return;
    const bytes = Buffer.concat(batch, batched);
    const owned = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    hasher.postMessage({ op: 'update', id, bytes: owned }, [owned]);
    batch = [];
    batched = 0;
  };
  const out = createWriteStream(file, { flags: 'r+', start: offset });
  req.on('data', (piece) => {
    batch.push(piece);
    batched += piece.length;
    if (batched >= batchBytes) flush();
  });
  req.on('end', flush);
  req.pipe(out);
  out.on('finish', () => {
    const expected = url.searchParams.get('md5');
    if (!expected) {
      res.end('{"code":0}');
      return;
    }
    digests.set(id, (md5) => {
      if (md5 === expected) {
        res.end('{"code":0}');
        return;
      }
      res.statusCode = 422;
      res.end('{"code":1,"msg":"md5 mismatch"}');
    });
    hasher.postMessage({ op: 'digest', id });
  });
  out.on('error', (error) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
serveBench(server, dir);
