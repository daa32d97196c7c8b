import { test, expect } from './fixtures';
import { shownAlert } from './files-support';

test.describe('admin sign-in', () => {
  test('an admin signs in through the page and lands on the dashboard', async ({
    page,
    atrium,
  }) => {
    const stylesheet = page.waitForResponse((r) => /\/assets\/[^/]+\.css$/.test(r.url()));
    await page.goto(atrium.adminUrl);
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('heading', { name: /管理后台/ })).toBeVisible();
    // The build's gzipped copy of antd's stylesheet travels (apps/web/precompress.ts).
    expect((await stylesheet).headers()['content-encoding']).toBe('gzip');

    await page.getByLabel('用户名', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill(atrium.adminPassword);
    // antd's styles come from its stylesheet and the theme's tokens from CSS variables (zeroRuntime
    // in AppProviders): the primary button wears the brand colour, its text white, and what antd
    // writes into the page at runtime declares variables only, no component's CSS.
    const signIn = page.getByRole('button', { name: /登\s*录/ });
    await expect(signIn).toHaveCSS('background-color', 'rgb(79, 70, 229)');
    await expect(signIn).toHaveCSS('color', 'rgb(255, 255, 255)');
    const written = await page.evaluate(() =>
      [...document.querySelectorAll('style[data-css-hash]')].map((s) => s.textContent ?? ''),
    );
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((css) => /[{;](?!--)[a-z-]+:/.test(css))).toEqual([]);
    await signIn.click();

    await expect(page).toHaveURL(/#\/dashboard$/);
    await expect(page.getByRole('heading', { name: /^你好，/ })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'menu' });
    await expect(nav.getByRole('link', { name: '仪表盘' })).toBeVisible();

    // The session survives a reload: the token lives in the cookie.
    await page.reload();
    await expect(page.getByRole('heading', { name: /^你好，/ })).toBeVisible();
  });

  test('a wrong password is refused in the form', async ({ page, atrium }) => {
    await page.goto(`${atrium.adminUrl}#/login`);
    await page.getByLabel('用户名', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(shownAlert(page)).toBeVisible();
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('signing out returns to the login page and the session is gone', async ({
    page,
    atrium,
  }) => {
    await page.goto(`${atrium.adminUrl}#/login`);
    await page.getByLabel('用户名', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill(atrium.adminPassword);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(page).toHaveURL(/#\/dashboard$/);

    await page.getByRole('banner').getByRole('button').last().click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/#\/login\?redirect=%2Fdashboard$/);
    await expect(page.getByLabel('用户名', { exact: true })).toBeVisible();
    // A fresh page load has no session either.
    await page.goto(`${atrium.adminUrl}#/dashboard`);
    await page.reload();
    await expect(page).toHaveURL(/#\/login\?redirect=%2Fdashboard$/);
  });
});
