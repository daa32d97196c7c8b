// `npm run test:e2e`: the browser specs (Playwright, Debian's Chromium) against a build that is
// rebuilt first when any source is newer than it.
import { ensureBuilt, ensureInstalled, run } from './lib.mjs';

ensureInstalled();
ensureBuilt();
// `--a11y` (npm run test:a11y) runs the accessibility scan's own config instead of the suite's.
const args = process.argv.slice(2);
const a11y = args.includes('--a11y');
const config = a11y ? 'apps/web/playwright.a11y.config.ts' : 'apps/web/playwright.config.ts';
const status = run(
  'npx',
  ['playwright', 'test', '-c', config, ...args.filter((arg) => arg !== '--a11y')],
  { env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } },
);
process.exit(status);
