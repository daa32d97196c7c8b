import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test, type Locator, type Page } from '@playwright/test';

/**
 * Pictures of the screens, to be looked at by a person: taken only when asked for
 * (`SCREENSHOTS=1`), never in `npm test`, where nothing compares them.
 */
export const SHOTS = process.env.SCREENSHOTS === '1';

/** Where the pictures go: one folder per spec under it. */
const ROOT = '/work/screens';

/**
 * With SCREENSHOTS=1, photographs `target` (a page, or one element) as
 * /work/screens/<spec>/<name>.png, <spec> being the running spec's name without `.e2e.ts`.
 * `fullPage` takes the whole scrolled page (pages only).
 */
export async function snap(
  target: Page | Locator,
  name: string,
  { fullPage = false }: { fullPage?: boolean } = {},
): Promise<void> {
  if (!SHOTS) return;
  const spec = basename(test.info().file).replace(/\.e2e\.ts$/, '');
  const path = join(ROOT, spec, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  if ('goto' in target) await target.screenshot({ path, animations: 'disabled', fullPage });
  else await target.screenshot({ path, animations: 'disabled' });
}
