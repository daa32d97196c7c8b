import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-cycles.mjs';

const dir = mkdtempSync(join(tmpdir(), 'atrium-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A project over `files` (path → source), with an `@/` path alias as the web has. */
function projectOf(files) {
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  return {
    fileNames: Object.keys(files).map((path) => join(dir, path)),
    options: {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      baseUrl: dir,
      paths: { '@/*': ['src/*'] },
      noEmit: true,
      types: [],
    },
  };
}

const cyclesOf = (files) =>
  importCycles(
    importGraph([projectOf(files)], (file) => file.startsWith(`${dir}/src/`)),
    dir,
  );

describe('import cycles', () => {
  it('finds a loop through imports, re-exports, path aliases and dynamic imports', () => {
    const cycles = cyclesOf({
      'src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/b.ts': "export { c as b } from '@/c';\n",
      'src/c.ts': "export const c = () => import('./a');\n",
      'src/alone.ts': "import { a } from './a';\nexport const alone = a;\n",
    });
    expect(cycles).toEqual([
      {
        files: ['src/a.ts', 'src/b.ts', 'src/c.ts'],
        loop: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/a.ts'],
      },
    ]);
  });

  it('counts a module that imports itself', () => {
    expect(cyclesOf({ 'src/self.ts': "import './self';\nexport const self = 1;\n" })).toEqual([
      { files: ['src/self.ts'], loop: ['src/self.ts', 'src/self.ts'] },
    ]);
  });

  it('ignores imports and exports of types only, which leave nothing at run time', () => {
    expect(
      cyclesOf({
        'src/d.ts': "import type { E } from './e';\nexport type D = E;\nexport const d = 1;\n",
        'src/e.ts': "import { type D } from './d';\nexport type E = D | 2;\n",
        'src/f.ts': "export type { G } from './g';\nexport const f = 1;\n",
        'src/g.ts': "import { f } from './f';\nexport type G = typeof f;\n",
      }),
    ).toEqual([]);
  });

  it('leaves out modules outside the project', () => {
    expect(
      cyclesOf({
        'lib/x.ts': "import './y';\nexport const x = 1;\n",
        'lib/y.ts': "import './x';\nexport const y = 1;\n",
        'src/h.ts': "import '../lib/x';\nexport const h = 1;\n",
      }),
    ).toEqual([]);
  });
});
