// `npm test`: install what is missing (npm packages, Debian's Chromium), then run every suite:
// typecheck, lint, unit + integration (Vitest), browser end-to-end (Playwright + Chromium).
// PostgreSQL / Redis suites join in when TEST_DATABASE_URL / TEST_REDIS_URL are set.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, mustRun, root, run } from './lib.mjs';

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

console.log('\n› Typecheck');
mustRun('npm', ['run', 'typecheck']);
console.log('\n› Lint');
mustRun('npm', ['run', 'lint']);
console.log('\n› Formatting (prettier --check)');
mustRun('npm', ['run', 'format:check']);
console.log('\n› Build');
ensureBuilt();

const vitestJson = join(reports, 'vitest.json');
console.log('\n› Unit and integration tests (Vitest)');
const vitestStatus = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);

const playwrightJson = join(reports, 'playwright.json');
console.log('\n› Browser tests (Playwright, Chromium)');
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
  if (existsSync(vitestJson)) {
    const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
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
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (vitestStatus !== 0 || e2eStatus !== 0 || failed > 0 || passed === 0) process.exit(1);
