import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

// Never let Playwright fetch a browser: the tests drive Debian's Chromium.
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.e2e.ts',
  // Tests, not whole files, are shared out between the workers: a long file no longer holds one
  // worker while the other idles. Each test seeds what it needs (the worker's server is shared
  // with whatever ran before on it).
  fullyParallel: true,
  // One more worker than cores, measured: on 2 cores, 28 chat, files, picker and one-voice tests
  // took 315 s with 3 workers against 375 s with 2; the whole tier 344 s with 3 against 367 s
  // with 6. The tier keeps both cores busy (96-98 %, mostly Chromium's renderers, which GNU time
  // in npm test's table does not count), so more workers than this only share the same cores.
  workers: availableParallelism() + 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // npm test asks for a JSON report (to print the pass/fail totals); plain runs only list.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  outputDir: '../../test-results/e2e',
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
    // The specs browse as a visitor who asked the system for less motion: antd then skips its
    // animations (about a tenth of the browser's work and waits here). app-providers.test.tsx
    // checks that the preference is what turns them off.
    reducedMotion: 'reduce',
    // A failed test keeps its trace (actions, network, console) and one screenshot. The trace's
    // own screencast is left out: encoding a frame per paint cost a third of the browser tests'
    // time on a 2-core machine (fields, files-picker and accounts: 93 s against 62 s without it).
    // So are its DOM snapshots, taken at every action of every test, passing ones included: the
    // whole tier took 253 s and 495 CPU-s without them against 294 s and 574 with them.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's headless shell (npm test installs it): the same Chromium build without the
      // browser's UI, a third less CPU for the tier than the full browser (scripts/test.mjs).
      executablePath: '/usr/bin/chromium-headless-shell',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
