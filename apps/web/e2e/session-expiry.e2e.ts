import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

async function signIn(page: Page, password: string) {
  await page.getByLabel('用户名', { exact: true }).fill('admin');
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

test('an invalid token sends the admin to the login page and back after signing in', async ({
  page,
  atrium,
}) => {
  await page
    .context()
    .addCookies([{ name: 'admin-api-token', value: 'not-a-real-token', url: atrium.url }]);
  await page.goto(`${atrium.adminUrl}#/dashboard`);
  await expect(page).toHaveURL(/#\/login\?redirect=%2Fdashboard$/);

  await signIn(page, atrium.adminPassword);
  await expect(page).toHaveURL(/#\/dashboard$/);
  await expect(page.getByRole('heading', { name: /^你好，/ })).toBeVisible();
});

test('a session that ends while the page is open ("not logged in") leads to login and back', async ({
  page,
  atrium,
}) => {
  await page.clock.install();
  await page.goto(`${atrium.adminUrl}#/login`);
  await signIn(page, atrium.adminPassword);
  await expect(page).toHaveURL(/#\/dashboard$/);

  // The server now answers "not logged in" (code 1000), as it does for an expired session.
  await page.route('**/admin/api/app/config', (route) =>
    route.fulfill({ json: { code: 1000, msg: 'not logined', data: null } }),
  );
  await page.clock.fastForward(30_000);
  await expect(page).toHaveURL(/#\/login\?redirect=%2Fdashboard$/);

  await page.unroute('**/admin/api/app/config');
  await signIn(page, atrium.adminPassword);
  await expect(page).toHaveURL(/#\/dashboard$/);
});
