// `npm run check`: typecheck and lint over one TypeScript program per project. `tsc` and
// typescript-eslint's type-aware rules each build the same programs; built once here, they serve
// both (the type errors of `npm run typecheck`, the findings of `npm run lint`) at the cost of one.
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';
import { importCycles, importGraph } from './import-cycles.mjs';
import { root } from './lib.mjs';

// Order matters: a file in several programs (packages/shared/src is in all three) is linted with
// the first that holds it, which is its own project's.
const projects = ['packages/shared', 'apps/server', 'apps/web'];

const host = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};

function programOf(project) {
  const configPath = join(root, project, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
  });
  return { project, program, configErrors: parsed.errors };
}

const started = performance.now();
const built = projects.map(programOf);

let typeErrors = 0;
for (const { project, program, configErrors } of built) {
  const diagnostics = [...configErrors, ...ts.getPreEmitDiagnostics(program)];
  typeErrors += diagnostics.length;
  if (diagnostics.length > 0) {
    console.error(`\n✖ ${project}: ${diagnostics.length} type error(s)`);
    console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  }
}
const typecheckSeconds = (performance.now() - started) / 1000;

// No import cycles among the apps' and the shared package's own modules (DESIGN 3), read off the
// same programs: a graph walk instead of a lint rule that parses every module again.
const ownModule = /^(apps|packages)\/[^/]+\/(?!node_modules\/)/;
const cycles = importCycles(
  importGraph(
    built.map((b) => b.program),
    (file) => ownModule.test(relative(root, file)),
  ),
  root,
);
for (const { files, loop } of cycles) {
  console.error(`\n✖ import cycle among ${files.length} files:\n  ${loop.join('\n  → ')}`);
}

const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      // The type-aware block of eslint.config.js, given the programs built above instead of
      // building its own through the project service.
      files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
      ignores: ['packages/shared/vitest.config.ts'],
      languageOptions: {
        parserOptions: { projectService: false, programs: built.map((b) => b.program) },
      },
    },
  ],
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
const output = await formatter.format(results);
if (output) console.log(output);

const seconds = (performance.now() - started) / 1000;
console.log(
  `typecheck: ${typeErrors} error(s) in ${projects.length} projects (${typecheckSeconds.toFixed(0)} s); ` +
    `import cycles: ${cycles.length}; ` +
    `lint: ${problems} problem(s) in ${results.length} files; ${seconds.toFixed(0)} s in all`,
);
process.exit(typeErrors > 0 || cycles.length > 0 || problems > 0 ? 1 : 0);
