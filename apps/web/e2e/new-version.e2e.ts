import { test, expect } from './fixtures';

test('a new deployment prompts to reload; cancel lets the next change prompt again', async ({
  page,
  atrium,
}) => {
  // Stand in for deployments by changing the hash the server reports for the pages.
  let hashPC = 'deploy-1';
  await page.route('**/api/app/config', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { hashPC: string } };
    body.data.hashPC = hashPC;
    await route.fulfill({ response, json: body });
  });
  await page.clock.install();
  await page.goto(atrium.url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  /** Moves the page's clock on by `ms` and waits until the refresh it made was answered and read. */
  const refreshed = async (ms: number) => {
    const answered = page.waitForResponse('**/api/app/config');
    await page.clock.fastForward(ms);
    const response = await answered;
    await response.finished();
    // One round trip through the page's own event loop: the answer's handlers have run.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  };
  const prompt = page.getByRole('dialog').filter({ hasText: '页面代码已更新，是否立即刷新页面？' });

  // Same hash on the 30 s refresh: nothing to say, once the page has read the refreshed answer.
  await refreshed(30_000);
  await expect(prompt).toHaveCount(0);

  hashPC = 'deploy-2';
  await page.clock.fastForward(30_000);
  await expect(prompt).toBeVisible();
  await expect(page.getByRole('dialog', { name: '提示' })).toBeVisible();

  await prompt.getByRole('button', { name: /取\s*消/ }).click();
  await expect(prompt).toBeHidden();

  // Still deploy-2: cancelled means "not now", not "ask every 30 s".
  await refreshed(30_000);
  await expect(prompt).toBeHidden();

  hashPC = 'deploy-3';
  await page.clock.fastForward(30_000);
  await expect(prompt).toBeVisible();

  await page.evaluate(() => {
    (window as unknown as { beforeReload: boolean }).beforeReload = true;
  });
  await Promise.all([
    page.waitForEvent('load'),
    prompt.getByRole('button', { name: /确\s*定/ }).click(),
  ]);
  expect(await page.evaluate(() => 'beforeReload' in window)).toBe(false);
  // The reloaded page keeps refreshing; let those requests go when the test ends.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
