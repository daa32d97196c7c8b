// `npm test`: install what is missing (npm packages, Debian's Chromium), then run every suite:
// typecheck, lint, unit + integration (Vitest), browser end-to-end (Playwright + Chromium).
// PostgreSQL / Redis suites join in when TEST_DATABASE_URL / TEST_REDIS_URL are set.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ensureInstalled, root, run } from './lib.mjs';

const chromium = '/usr/bin/chromium';

function ensureChromium() {
  if (existsSync(chromium)) return;
  console.log('› Installing Chromium from Debian packages…');
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? [] : ['sudo', '-n'];
  const apt = (args) => {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    return run(cmd, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  if (apt(['update', '-qq']) !== 0 || apt(['install', '-y', '-qq', 'chromium']) !== 0) {
    console.error('✖ Could not install Chromium with apt-get; install the "chromium" package.');
    process.exit(1);
  }
}

ensureInstalled();
ensureChromium();

const reports = join(root, 'test-results', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/** Runs a command with its output kept aside; resolves with its status, output and seconds. */
function runAside(cmd, args, env = process.env) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) =>
      resolve({ status: status ?? 1, output, seconds: (performance.now() - started) / 1000 }),
    );
  });
}

const elapsed = (from) => `${Math.round((performance.now() - from) / 1000)} s`;
const started = performance.now();

// The checks and the build are independent: they run side by side (each mostly uses one core).
console.log('\n› Typecheck, lint, formatting (prettier --check) and build, side by side');
const checks = [
  // One TypeScript program per project serves the typecheck and the type-aware lint rules.
  ['Typecheck and lint', process.execPath, ['scripts/check.mjs']],
  ['Formatting', 'npm', ['run', 'format:check']],
  [
    'Build',
    process.execPath,
    ['--input-type=module', '-e', "(await import('./scripts/lib.mjs')).ensureBuilt()"],
  ],
];
const results = await Promise.all(checks.map(([, cmd, args]) => runAside(cmd, args)));
let checksFailed = false;
results.forEach((result, index) => {
  const label = checks[index][0];
  const mark = result.status === 0 ? '✓' : '✖';
  console.log(`\n${mark} ${label} (${Math.round(result.seconds)} s)`);
  if (result.status !== 0 || label === 'Build') process.stdout.write(result.output);
  checksFailed ||= result.status !== 0;
});
if (checksFailed) process.exit(1);

const vitestJson = join(reports, 'vitest.json');
const webJson = join(reports, 'vitest-web.json');
const integrationJson = join(reports, 'vitest-integration.json');
const playwrightJson = join(reports, 'playwright.json');
const vitest = (projects, json) =>
  run('npx', [
    'vitest',
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  ]);

// One worker per core. The server's tests (some time take-overs and heartbeats in seconds) run
// first, the web's component tests (antd under jsdom: a core each, flat out) after them, so that
// neither shares the cores with the other.
console.log(`\n› Unit tests (Vitest: shared, server) after ${elapsed(started)}`);
const unitStatus = vitest(['shared', 'server'], vitestJson);
console.log(`\n› Unit tests (Vitest: web) after ${elapsed(started)}`);
const webStatus = vitest(['web'], webJson);
// The integration tier's real processes measure take-overs in seconds ("within 5 s of the kill"):
// it runs after the unit tiers and before the browser tests, its files side by side except the
// quiet ones (server-quiet, one at a time after the rest: apps/server/test-tiers.mjs).
console.log(`\n› Integration tests (Vitest: real server processes) after ${elapsed(started)}`);
const integrationStatus = vitest(['server-integration', 'server-quiet'], integrationJson);
const vitestStatus = [unitStatus, webStatus, integrationStatus].find((s) => s !== 0) ?? 0;

console.log(`\n› Browser tests (Playwright, Chromium) after ${elapsed(started)}`);
const e2eStatus = run('npx', ['playwright', 'test', '-c', 'apps/web/playwright.config.ts'], {
  env: {
    ...process.env,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
  },
});

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

const { passed, failed, skipped } = counts();
console.log(
  `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped (${elapsed(started)})`,
);
if (vitestStatus !== 0 || e2eStatus !== 0 || failed > 0 || passed === 0) process.exit(1);
