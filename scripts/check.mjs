// `npm run check`: the typecheck, the lint and the import-cycle walk, side by side.
// - Typecheck: tsgo, TypeScript's native compiler (TypeScript 7), one project after another.
// - Lint: oxlint's type-aware pass (.oxlintrc.json: floating promises, deprecated APIs, ...), on
//   the same native compiler, beside ESLint's rules that need no types (eslint.config.js).
// - No import cycles among the apps' and the shared package's own modules (DESIGN 3).
// Measured here alone on 2 cores: 67 s and 99 CPU-s when tsc and typescript-eslint's type-aware
// rules shared one JavaScript program per project; see the closing note of issue 30 for after.
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';
import { importCycles, importGraph } from './import-cycles.mjs';
import { root } from './lib.mjs';

const projects = ['packages/shared', 'apps/server', 'apps/web'];
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a tool to its end, its output kept; resolves with its status and output. */
function tool(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ status: 1, output: String(error) }));
    child.on('close', (status) => resolve({ status: status ?? 1, output }));
  });
}

const started = performance.now();
const since = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

async function typecheck() {
  const failed = [];
  for (const project of projects) {
    const { status, output } = await tool(bin('tsgo'), ['-p', project, '--noEmit', '--pretty']);
    if (status !== 0) failed.push(`\n✖ ${project}: type errors\n${output}`);
  }
  return { failed, seconds: since() };
}

async function typeAwareLint() {
  const { status, output } = await tool(bin('oxlint'), ['--type-aware', '--deny-warnings']);
  return { failed: status === 0 ? [] : [`\n✖ oxlint (type-aware rules)\n${output}`] };
}

const typing = typecheck();
const oxlint = typeAwareLint();

// The projects as their tsconfig files list them, for the import graph (parsed, not type-checked).
const parsedProjects = projects.map((project) => {
  const configPath = join(root, project, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  return { fileNames: parsed.fileNames, options: parsed.options };
});
// A file in several projects (packages/shared/src is in all three) is read with its own first.
const ownModule = /^(apps|packages)\/[^/]+\/(?!node_modules\/)/;
const cycles = importCycles(
  importGraph(parsedProjects, (file) => ownModule.test(relative(root, file))),
  root,
);
for (const { files, loop } of cycles) {
  console.error(`\n✖ import cycle among ${files.length} files:\n  ${loop.join('\n  → ')}`);
}

const eslint = new ESLint({ cwd: root });
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
const output = await formatter.format(results);
if (output) console.log(output);

const typed = await typing;
const linted = await oxlint;
for (const message of [...typed.failed, ...linted.failed]) console.error(message);
console.log(
  `typecheck: ${typed.failed.length} of ${projects.length} projects with errors (${typed.seconds}); ` +
    `import cycles: ${cycles.length}; ` +
    `lint: ${problems} problem(s) in ${results.length} files, oxlint ${linted.failed.length === 0 ? 'clean' : 'failed'}; ` +
    `${since()} in all`,
);
const failed = typed.failed.length + linted.failed.length + cycles.length + problems;
process.exit(failed > 0 ? 1 : 0);
