// `npm test`: install what is missing (npm packages, Debian's Chromium), then run every suite:
// typecheck, lint, unit + integration (Vitest), browser end-to-end (Playwright + Chromium).
// PostgreSQL / Redis suites join in when TEST_DATABASE_URL / TEST_REDIS_URL are set.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ensureInstalled, root, run } from './lib.mjs';

// The browser suite drives Debian's headless shell of Chromium: the same Blink and V8 build as
// `chromium` without the browser's UI (what Playwright itself runs headless). Measured on the
// whole browser tier, alone on 2 cores: 294 s and 574 CPU-s against 426 s and 844 CPU-s with the
// full browser in its new headless mode.
const chromium = '/usr/bin/chromium-headless-shell';

function ensureChromium() {
  if (existsSync(chromium)) return;
  console.log('› Installing Chromium (headless shell) from Debian packages…');
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? [] : ['sudo', '-n'];
  const apt = (args) => {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    return run(cmd, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  if (
    apt(['update', '-qq']) !== 0 ||
    apt(['install', '-y', '-qq', 'chromium-headless-shell']) !== 0
  ) {
    console.error(
      '✖ Could not install Chromium with apt-get; install the "chromium-headless-shell" package.',
    );
    process.exit(1);
  }
}

ensureInstalled();
ensureChromium();

const reports = join(root, 'test-results', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const timeTool = '/usr/bin/time';
const stages = [];

/**
 * The whole machine's busy and total CPU time so far, in seconds (Linux's /proc/stat; null
 * elsewhere). GNU time counts only the processes a stage waits for: Chromium's renderers, which
 * its browser process never reaps before it is killed, fall outside it (a browser run measured
 * here: 35 CPU-s counted, 81 CPU-s of the machine busy, 96 % of both cores). The machine's own
 * count shows whether a stage is bound by the cores or by waiting.
 */
function machineCpu() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return null;
  }
}

/**
 * Runs one stage: its output kept aside (printed by the caller) or straight to the terminal.
 * Resolves with its status, output, wall seconds and CPU seconds (user + system of the stage and
 * everything it started, from GNU time; null where that tool is missing).
 */
function runStage(label, cmd, args, { env = process.env, aside = false } = {}) {
  const started = performance.now();
  const cpuFile = join(reports, `cpu-${stages.length}.txt`);
  const timed = existsSync(timeTool);
  const [command, argv] = timed
    ? [timeTool, ['-q', '-o', cpuFile, '-f', '%U %S', cmd, ...args]]
    : [cmd, args];
  const machineAtStart = machineCpu();
  const stage = {
    label,
    from: (started - pipelineStart) / 1000,
    seconds: 0,
    cpu: null,
    busy: null,
  };
  stages.push(stage);
  return new Promise((resolve) => {
    const child = spawn(command, argv, {
      cwd: root,
      env,
      stdio: aside ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('close', (status) => {
      stage.seconds = (performance.now() - started) / 1000;
      const machineAtEnd = machineCpu();
      if (machineAtStart && machineAtEnd) {
        const total = machineAtEnd.total - machineAtStart.total;
        if (total > 0) stage.busy = (machineAtEnd.busy - machineAtStart.busy) / total;
      }
      if (timed && existsSync(cpuFile)) {
        const [user, system] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2);
        const cpu = Number(user) + Number(system);
        if (Number.isFinite(cpu)) stage.cpu = cpu;
      }
      resolve({ status: status ?? 1, output, seconds: stage.seconds });
    });
  });
}

const pipelineStart = performance.now();
const elapsed = (from) => `${Math.round((performance.now() - from) / 1000)} s`;

const vitestJson = join(reports, 'vitest.json');
const webJson = join(reports, 'vitest-web.json');
const integrationJson = join(reports, 'vitest-integration.json');
const playwrightJson = join(reports, 'playwright.json');
const vitestArgs = (projects, json) => [
  'vitest',
  'run',
  ...projects.flatMap((project) => ['--project', project]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${json}`,
];

// The checks, the build and the server's unit tests are independent: they run side by side. The
// typecheck + lint holds one core for most of the stage while prettier and the build finish
// early; the unit tier fills the other core (and the one the typecheck leaves while it waits).
// The build only gates the browser tests.
console.log(
  '\n› Typecheck + lint, formatting (prettier --check), build and unit tests (Vitest: shared, scripts, server), side by side',
);
const checkStages = [
  // tsgo's typecheck and oxlint's type-aware rules (native), ESLint's other rules, the cycle walk.
  ['Typecheck and lint', process.execPath, ['scripts/check.mjs']],
  ['Formatting', 'npm', ['run', 'format:check']],
  [
    'Build',
    process.execPath,
    ['--input-type=module', '-e', "(await import('./scripts/lib.mjs')).ensureBuilt()"],
  ],
];
const unitLabel = 'Unit tests (shared, scripts, server)';
const unitRun = runStage(
  unitLabel,
  'npx',
  vitestArgs(['shared', 'scripts', 'server'], vitestJson),
  { aside: true },
);
const checkResults = await Promise.all(
  checkStages.map(([label, cmd, args]) => runStage(label, cmd, args, { aside: true })),
);
/** Prints a finished stage's mark, name and time, and its output when asked to. */
function report(label, result, withOutput) {
  console.log(`\n${result.status === 0 ? '✓' : '✖'} ${label} (${Math.round(result.seconds)} s)`);
  if (withOutput) process.stdout.write(result.output);
}
let checksFailed = false;
checkResults.forEach((result, index) => {
  const label = checkStages[index][0];
  report(label, result, result.status !== 0 || label === 'Build');
  checksFailed ||= result.status !== 0;
});
if (checksFailed) {
  report(unitLabel, await unitRun, true);
  process.exit(1);
}

// The web's component tests (antd under jsdom: a core each, flat out) take the cores the checks
// leave, beside the end of the server's unit tier, which shared them with the checks until then
// (measured: the checks end some 20 s before the server's unit tier, whose last files are its
// real-time ones, tuned to run beside a busy core).
console.log(`\n› Unit tests (Vitest: web) after ${elapsed(pipelineStart)}`);
const webRun = runStage('Unit tests (web)', 'npx', vitestArgs(['web'], webJson), { aside: true });
const unit = await unitRun;
report(unitLabel, unit, true);
const web = await webRun;
report('Unit tests (web)', web, true);
const unitStatus = unit.status;
// The integration tier's real processes measure take-overs in seconds ("within 5 s of the kill"):
// it runs after the unit tiers and before the browser tests, its files side by side except the
// quiet ones (server-quiet, one at a time after the rest: apps/server/test-tiers.mjs).
console.log(
  `\n› Integration tests (Vitest: real server processes) after ${elapsed(pipelineStart)}`,
);
const integration = await runStage(
  'Integration tests',
  'npx',
  vitestArgs(['server-integration', 'server-quiet'], integrationJson),
);
const vitestStatus = [unitStatus, web.status, integration.status].find((s) => s !== 0) ?? 0;

console.log(`\n› Browser tests (Playwright, Chromium) after ${elapsed(pipelineStart)}`);
const e2e = await runStage(
  'Browser tests',
  'npx',
  ['playwright', 'test', '-c', 'apps/web/playwright.config.ts'],
  {
    env: {
      ...process.env,
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    },
  },
);
const e2eStatus = e2e.status;

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of [vitestJson, webJson, integrationJson]) {
    if (!existsSync(file)) continue;
    const v = JSON.parse(readFileSync(file, 'utf8'));
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  }
  if (existsSync(playwrightJson)) {
    const p = JSON.parse(readFileSync(playwrightJson, 'utf8'));
    passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    failed += p.stats?.unexpected ?? 0;
    skipped += p.stats?.skipped ?? 0;
  }
  return { passed, failed, skipped };
}

// Each stage's start, wall time and CPU time (all cores), to see where the time goes; the load
// average says how much else the machine was doing meanwhile.
const load = loadavg()
  .map((n) => n.toFixed(1))
  .join(', ');
console.log(`\nload average at the end: ${load} (${availableParallelism()} cores)`);
// "CPU" is what GNU time counted for the stage's own processes; "cores busy" is the whole
// machine's, over the stage's wall time (stages side by side share it; 100 % means CPU-bound).
// The first column is as wide as the longest stage's name.
const width = Math.max(...stages.map((s) => s.label.length), 'stage'.length) + 1;
console.log(
  `${'stage'.padEnd(width)} ${'from'.padStart(6)} ${'wall'.padStart(8)} ${'CPU'.padStart(8)} ${'cores busy'.padStart(11)}`,
);
for (const { label, from, seconds, cpu, busy } of stages) {
  const cpuText = cpu === null ? '–' : `${Math.round(cpu)} s`;
  const busyText = busy === null ? '–' : `${Math.round(busy * 100)} %`;
  console.log(
    `${label.padEnd(width)} ${`${Math.round(from)} s`.padStart(6)} ${`${Math.round(seconds)} s`.padStart(8)} ${cpuText.padStart(8)} ${busyText.padStart(11)}`,
  );
}
const { passed, failed, skipped } = counts();
console.log(
  `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped (${elapsed(pipelineStart)})`,
);
if (vitestStatus !== 0 || e2eStatus !== 0 || failed > 0 || passed === 0) process.exit(1);
