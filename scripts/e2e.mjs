// `npm run test:e2e`: the browser specs (Playwright, Debian's Chromium) against a build that is
// rebuilt first when any source is newer than it.
import { ensureBuilt, ensureInstalled, run } from './lib.mjs';

ensureInstalled();
ensureBuilt();
const status = run(
  'npx',
  ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', ...process.argv.slice(2)],
  { env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } },
);
process.exit(status);
