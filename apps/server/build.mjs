// Bundles the server into dist/main.js. Dependencies stay external (installed in node_modules)
// except @atrium/shared, which is TypeScript source and must be compiled in.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const pkg = JSON.parse(readFileSync(here('./package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => name !== '@atrium/shared');

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
  // Bundled CommonJS code may call require(); ESM has none, so provide one.
  banner: {
    js: "import { createRequire as __atriumCreateRequire } from 'node:module'; const require = __atriumCreateRequire(import.meta.url);",
  },
});

// The hash threads' module runs as its own file next to the bundle (hasher.ts finds it there).
await build({
  entryPoints: [here('./src/features/upload/hash.worker.mjs')],
  outfile: here('./dist/hash.worker.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
});

// The document reader's thread (chat-docs extractor.ts finds it next to the bundle too).
await build({
  entryPoints: [here('./src/features/chat-docs/extract.worker.mjs')],
  outfile: here('./dist/extract.worker.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __atriumCreateRequire } from 'node:module'; const require = __atriumCreateRequire(import.meta.url);",
  },
});

// The import file's reader (chat archive-parse.ts finds it next to the bundle too).
await build({
  entryPoints: [here('./src/features/chat/archive-parse.worker.mjs')],
  outfile: here('./dist/archive-parse.worker.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
});

console.log(
  'Built apps/server/dist/main.js, dist/hash.worker.mjs, dist/extract.worker.mjs and dist/archive-parse.worker.mjs',
);
