// The baseline of the upload bench: a bare node:http server that writes each request body at
// the offset the query names, into one file per upload, and answers a small JSON. DELETE removes
// the upload again. It also serves the browser bench's page (bench-page.mjs).
import { createWriteStream, mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveBenchPage } from './bench-page.mjs';
import { serveBench } from './serve.mjs';

const dir = mkdtempSync(join(tmpdir(), 'atrium-bench-bare-'));
const server = createServer((req, res) => {
  if (serveBenchPage(req, res)) return;
  const url = new URL(req.url ?? '/', 'http://x');
  const file = join(dir, (url.searchParams.get('id') ?? 'upload').replace(/[^a-z0-9]/gi, ''));
  if (req.method === 'DELETE') {
    rmSync(file, { force: true });
    res.end('{"code":0}');
    return;
  }
  const offset = Number(url.searchParams.get('offset') ?? 0);
  if (offset === 0) closeSync(openSync(file, 'w'));
  const out = createWriteStream(file, { flags: 'r+', start: offset });
  req.pipe(out);
  out.on('finish', () => res.end('{"code":0}'));
  out.on('error', (error) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
serveBench(server, dir);
