import { addModel, adminAuth, call } from './api-call';
import { expect, test } from './fixtures';
import { SHOTS, snap } from './snap';
import { signInAdmin } from './files-support';
import { chooseLanguage } from './page-steps';

/**
 * The admin area on a phone (issue 28 point 9): every table's rows are cards whose actions are on
 * the screen, with nothing to scroll sideways; the model table shows the default context it uses;
 * the dashboard's two per-day charts label the same days.
 */

const langs = ['zh-CN', 'en'] as const;

/** Every admin table, the page it is on and a text one of its rows holds. */
const tables = (tag: string) => [
  { name: 'rooms', path: '/aigc/chat_room', row: `Narrow room ${tag}` },
  { name: 'models', path: '/aigc/model', row: 'narrow-model' },
  { name: 'members', path: '/member', row: `narrow_${tag}` },
  { name: 'admins', path: '/system/admin', row: 'admin' },
  // Its one row action is the detail; the seeding calls above are in it.
  { name: 'audit', path: '/system/audit', row: `Narrow room ${tag}` },
];

test('at 375 px every admin table shows its rows as cards with their actions on screen', async ({
  page,
  atrium,
}) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36).slice(-5);
  const admin = await adminAuth(atrium);
  // A model saved with context 0, the default.
  const model = await addModel(
    admin,
    { name: `Narrow AI ${tag}`, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-narrow-0000000000' },
    { name: 'narrow-model', title: `Narrow model ${tag}` },
  );
  await call(admin, 'aigc/chat_room/save', {
    id: 0,
    title: `Narrow room ${tag}`,
    modelId: model.id,
    sort: 1,
  });
  await call(admin, 'members/create', { username: `narrow_${tag}`, password: 'narrow-Member-42' });

  await page.setViewportSize({ width: 375, height: 812 });
  await signInAdmin(page, atrium, '/dashboard');
  const heading = page.getByRole('heading', { level: 3 }).first();
  for (const lang of langs) {
    await chooseLanguage(page, lang);
    for (const table of tables(tag)) {
      // By the address's hash, as the menu goes, once the page before has gone (its title with
      // it): its cards could hold the row looked for (the audit log names the room).
      const before = await heading.textContent();
      await page.goto(`${atrium.adminUrl}#${table.path}`);
      await expect(heading).not.toHaveText(before ?? '');
      const card = page.locator('.atrium-card-row').filter({ hasText: table.row }).first();
      await expect(card, `${lang} ${table.name}`).toBeVisible();
      await expect(page.locator('.ant-table')).toHaveCount(0);
      const actions = card.locator('.atrium-card-row-actions').getByRole('button');
      expect(await actions.count(), `${lang} ${table.name}: actions`).toBeGreaterThan(0);
      for (const button of await actions.all()) {
        await button.scrollIntoViewIfNeeded();
        const box = await button.boundingBox();
        const label = `${lang} ${table.name}: "${(await button.textContent()) ?? ''}"`;
        expect(box, label).not.toBeNull();
        expect(box?.x ?? -1, label).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? 0), label).toBeLessThanOrEqual(375);
      }
      // Nothing on the page reaches past the right edge.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${lang} ${table.name}: sideways scroll`).toBeLessThanOrEqual(0);
      if (table.name === 'models') {
        await expect(card).toContainText('8192');
        await expect(card).toContainText(lang === 'en' ? 'default' : '默认');
      }
      if (table.name === 'admins') {
        // A name on one line: "admin" broke letter by letter in a squeezed column once.
        const name = card.locator('.ant-typography strong').first();
        const box = await name.boundingBox();
        expect(box?.height ?? 0).toBeLessThan(30);
      }
      if (SHOTS) {
        await card.scrollIntoViewIfNeeded();
        await snap(page, `narrow-${table.name}-375-${lang}`);
      }
    }
  }
  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const lang of langs) {
      await chooseLanguage(page, lang);
      for (const table of tables(tag)) {
        await page.goto(`${atrium.adminUrl}#${table.path}`);
        await expect(page.locator('.ant-table-row').filter({ hasText: table.row })).toBeVisible();
        await snap(page, `narrow-${table.name}-1280-${lang}`);
      }
    }
  }
});

test("the dashboard's two per-day charts label the same days, ending today", async ({
  page,
  atrium,
}) => {
  await signInAdmin(page, atrium, '/dashboard');
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  const labels = (chart: string) =>
    page.getByTestId(chart).locator('.recharts-cartesian-axis-tick-value').allTextContents();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    // Drawn afresh at the phone's width (the charts fit their ticks to the width they are drawn at).
    if (width !== 1280) await page.reload();
    for (const lang of langs) {
      await chooseLanguage(page, lang);
      await expect(page.getByTestId('chart-signups').locator('.recharts-xAxis')).toBeVisible();
      await expect(page.getByTestId('chart-uploads').locator('.recharts-xAxis')).toBeVisible();
      const uploads = (await labels('chart-uploads')).filter((l) => /^\d\d-\d\d$/.test(l));
      const signups = (await labels('chart-signups')).filter((l) => /^\d\d-\d\d$/.test(l));
      expect(uploads.length, `${width} ${lang}`).toBeGreaterThan(2);
      expect(signups, `${width} ${lang}`).toEqual(uploads);
      expect(uploads.at(-1), `${width} ${lang}`).toBe(today);
      // The card says the same window in words.
      await expect(page.getByTestId('chart-uploads')).toContainText(today);
      if (SHOTS) {
        await page.getByTestId('chart-uploads').scrollIntoViewIfNeeded();
        await snap(page, `dashboard-${width}-${lang}`);
      }
    }
  }
});
