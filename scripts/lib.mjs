// Helpers shared by the start, test and bench scripts. Plain Node: they run before any install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

export function mustRun(cmd, args, opts = {}) {
  const status = run(cmd, args, opts);
  if (status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export function ensureInstalled() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh) return;
  console.log('› Installing dependencies (npm ci)…');
  mustRun('npm', ['ci', '--no-audit', '--no-fund'], {
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Builds the web apps and the server bundle when any source is newer than its output. */
export function ensureBuilt({ force = false } = {}) {
  const shared = newestMtime(join(root, 'packages/shared/src'));
  const webOut = join(root, 'apps/web/dist/index.html');
  const webSrc = Math.max(
    shared,
    newestMtime(join(root, 'apps/web/src')),
    newestMtime(join(root, 'apps/web/index.html')),
    newestMtime(join(root, 'apps/web/admin')),
    newestMtime(join(root, 'apps/web/public')),
    newestMtime(join(root, 'apps/web/vite.config.ts')),
    newestMtime(join(root, 'apps/web/precompress.ts')),
  );
  if (force || newestMtime(webOut) < webSrc) {
    console.log('› Building the web apps…');
    mustRun('npm', ['run', 'build', '-w', '@atrium/web']);
  }
  ensureServerBuilt({ force });
}

/** Builds the server bundle (`apps/server/dist`) when it is missing or older than its sources. */
export function ensureServerBuilt({ force = false } = {}) {
  const serverOut = join(root, 'apps/server/dist/main.js');
  const serverSrc = Math.max(
    newestMtime(join(root, 'packages/shared/src')),
    newestMtime(join(root, 'apps/server/src')),
    newestMtime(join(root, 'apps/server/build.mjs')),
    newestMtime(join(root, 'apps/server/package.json')),
  );
  if (force || newestMtime(serverOut) < serverSrc) {
    console.log('› Building the server…');
    mustRun('npm', ['run', 'build', '-w', '@atrium/server']);
  }
}
