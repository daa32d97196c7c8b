import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Two frames drawn: the layout after a resize (and what it re-measured) is on the screen. */
export async function painted(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
}

/**
 * The page in `lang` through the header's language switch (one button naming the other
 * language), as a visitor changes it: the app redraws in place, no load.
 */
export async function chooseLanguage(page: Page, lang: 'zh-CN' | 'en'): Promise<void> {
  if ((await page.locator('html').getAttribute('lang')) !== lang)
    await page.getByRole('button', { name: /^(语言|Language): / }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}
