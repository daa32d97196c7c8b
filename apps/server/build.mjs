// Bundles the server into dist/main.js. Dependencies stay external (installed in node_modules)
// except @atrium/shared, which is TypeScript source and must be compiled in.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const pkg = JSON.parse(readFileSync(here('./package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => name !== '@atrium/shared');

// Bundled CommonJS code may call require(); ESM has none, so provide one.
const requireBanner = {
  js: "import { createRequire as __atriumCreateRequire } from 'node:module'; const require = __atriumCreateRequire(import.meta.url);",
};

await build({
  entryPoints: [here('./src/main.ts')],
  outfile: here('./dist/main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
  banner: requireBanner,
});

// Worker threads run as files of their own next to the bundle, where their users find them:
// upload hashing (hasher.ts), the document reader (chat-docs extractor.ts), the import file's
// reader (chat archive-parse.ts) and its writer on SQLite (archive-writer.ts), and the streamed
// answers' appends on SQLite (chat append-thread.ts). The reader's parsers are CommonJS and need require().
const workers = [
  ['./src/features/library/upload/hash.worker.mjs', './dist/hash.worker.mjs', false],
  ['./src/features/chat-docs/extract.worker.mjs', './dist/extract.worker.mjs', true],
  [
    './src/features/chat/archive/archive-parse.worker.mjs',
    './dist/archive-parse.worker.mjs',
    false,
  ],
  [
    './src/features/chat/archive/archive-writer.worker.mjs',
    './dist/archive-writer.worker.mjs',
    false,
  ],
  ['./src/features/chat/streaming/append.worker.mjs', './dist/append.worker.mjs', false],
];
for (const [entry, outfile, needsRequire] of workers) {
  await build({
    entryPoints: [here(entry)],
    outfile: here(outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    logLevel: 'warning',
    ...(needsRequire ? { banner: requireBanner } : {}),
  });
}

console.log(
  'Built apps/server/dist/main.js, dist/hash.worker.mjs, dist/extract.worker.mjs, dist/archive-parse.worker.mjs, dist/archive-writer.worker.mjs and dist/append.worker.mjs',
);
