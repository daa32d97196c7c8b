// @tus/server with its file store, for the upload bench. Needs the packages @tus/server and
// @tus/file-store (not dependencies of Atrium itself); exits with code 3 when they are missing.
// It also serves the browser bench's page (bench-page.mjs), so tus-js-client uploads same-origin.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveBenchPage } from './bench-page.mjs';
import { serveBench } from './serve.mjs';

let Server;
let FileStore;
try {
  ({ Server } = await import('@tus/server'));
  ({ FileStore } = await import('@tus/file-store'));
} catch {
  console.error('tus packages are not installed');
  process.exit(3);
}

const dir = mkdtempSync(join(tmpdir(), 'atrium-bench-tus-'));
const tus = new Server({ path: '/files', datastore: new FileStore({ directory: dir }) });
const server = createServer((req, res) => {
  if (!serveBenchPage(req, res)) void tus.handle(req, res);
});
serveBench(server, dir);
