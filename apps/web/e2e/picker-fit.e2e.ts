import { writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { adminIn, send, sendLibrary } from './api-call';
import { expect, test } from './fixtures';
import { SHOTS, snap } from './snap';
import { buttonName, signInAdmin, solidPng } from './files-support';

/**
 * The picker fits the screen (issue 28 point 1): at 1280x800 and 375x812, in the dialog a
 * settings field opens, how many tiles show without scrolling and whether Confirm does.
 */

test.describe.configure({ mode: 'serial' });

const runTag = Date.now().toString(36);

const formItem = (page: Page, label: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: label }) });

interface Fit {
  width: number;
  dialogHeight: number;
  /** Tiles wholly inside the window, without scrolling anything. */
  tilesVisible: number;
  /** Tiles of the first row, and their width. */
  perRow: number;
  tileWidth: number;
  /** Where the first tile starts, from the window's top (the controls above it). */
  firstTileTop: number;
  /** The toolbar's controls (upload, search, filters) in one row. */
  toolbarOneRow: boolean;
  confirmVisible: boolean;
  /** The footer's "已选 N 项" with two files checked. */
  countVisible: boolean;
}

/** What a person sees of the open picker without scrolling. */
async function measure(page: Page, picker: Locator, width: number): Promise<Fit> {
  const figures = await picker.evaluate((dialog) => {
    // Wholly in the window and not cut off by any box that scrolls or clips it.
    const inside = (el: Element) => {
      const box = el.getBoundingClientRect();
      if (box.height === 0) return false;
      const within = (r: { top: number; bottom: number; left: number; right: number }) =>
        box.top >= r.top - 0.5 &&
        box.bottom <= r.bottom + 0.5 &&
        box.left >= r.left - 0.5 &&
        box.right <= r.right + 0.5;
      if (!within({ top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth }))
        return false;
      for (let up = el.parentElement; up; up = up.parentElement)
        if (getComputedStyle(up).overflow !== 'visible' && !within(up.getBoundingClientRect()))
          return false;
      return true;
    };
    const tiles = [...dialog.querySelectorAll('.atrium-fp-card')];
    const firstTop = tiles[0]?.getBoundingClientRect().top;
    const confirm = [...dialog.querySelectorAll('button')].find((b) =>
      /确\s*定|Confirm/.test(b.textContent ?? ''),
    );
    const count = dialog.querySelector('.atrium-fp-count');
    const tools = [...dialog.querySelectorAll('.atrium-fp-toolbar > *')];
    return {
      dialogHeight: Math.round(dialog.getBoundingClientRect().height),
      tilesVisible: tiles.filter(inside).length,
      perRow: tiles.filter((t) => t.getBoundingClientRect().top === firstTop).length,
      tileWidth: Math.round(tiles[0]?.getBoundingClientRect().width ?? 0),
      firstTileTop: Math.round(firstTop ?? -1),
      toolbarOneRow:
        tools.length > 1 &&
        new Set(tools.map((el) => Math.round(el.getBoundingClientRect().top))).size === 1,
      confirmVisible: confirm ? inside(confirm) : false,
      countVisible: count !== null && /2/.test(count.textContent ?? '') && inside(count),
    };
  });
  return { width, ...figures };
}

const labels = {
  zh: { field: '首页横幅', select: '选择图片', gallery: '文件库', filters: '筛选' },
  en: {
    field: 'Home banners',
    select: 'Select image',
    gallery: 'File Gallery',
    filters: 'Filters',
  },
} as const;

test('the picker dialog fits 1280x800 and 375x812, in both languages', async ({
  page,
  atrium,
}, testInfo) => {
  // Twelve uploads and four pickers, each measured twice: more than the default minute when the
  // machine is shared.
  test.setTimeout(120_000);
  const files = Array.from({ length: 12 }, (_, i) => {
    const path = testInfo.outputPath(`fit-${String(i).padStart(2, '0')}-${runTag}.png`);
    writeFileSync(path, solidPng(64, 48, [20 * i, 120, 240 - 15 * i]));
    return path;
  });
  await signInAdmin(page, atrium, '/system/setting');
  const open = async (lang: keyof typeof labels) => {
    const l = labels[lang];
    await formItem(page, l.field).getByRole('button', { name: l.select }).click();
    const picker = page.locator('.atrium-fp-modal');
    await expect(picker.getByRole('tab', { name: l.gallery })).toBeVisible();
    return picker;
  };
  let picker = await open('zh');
  await picker.locator('.atrium-upload input[type="file"]').setInputFiles(files);
  await expect(picker.getByRole('checkbox', { name: `fit-11-${runTag}.png` })).toBeVisible({
    timeout: 30_000,
  });
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();

  // `unchecked`: tiles wholly visible before any is checked (the footer's "Reverse Select Order"
  // comes with a second checked file and may take a second footer row).
  const fits: (Fit & { lang: string; unchecked: number })[] = [];
  for (const lang of ['zh', 'en'] as const) {
    if (lang === 'en') {
      await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
      await page.reload();
    }
    for (const [width, height] of [
      [1280, 800],
      [375, 812],
    ] as const) {
      await page.setViewportSize({ width, height });
      picker = await open(lang);
      await expect(picker.locator('.atrium-fp-card').first()).toBeVisible();
      await expect(picker.locator('.atrium-fp-card')).toHaveCount(10);
      const unchecked = (await measure(page, picker, width)).tilesVisible;
      // Two files checked, as a person choosing them would; the pointer then leaves the tiles
      // (a hovered tile shows its whole name, a line taller).
      await picker.locator('.atrium-fp-card').nth(0).click();
      await picker.locator('.atrium-fp-card').nth(1).click();
      await expect(picker.locator('.atrium-fp-count')).toHaveText(
        lang === 'zh' ? '已选 2 项' : '2 selected',
      );
      await page.mouse.move(width - 1, height - 1);
      fits.push({ lang, unchecked, ...(await measure(page, picker, width)) });
      if (SHOTS) {
        await snap(page, `picker-${lang}-${width}`);
        await picker.getByRole('button', { name: new RegExp(labels[lang].filters) }).click();
        await snap(page, `picker-${lang}-${width}-filters`);
        // Esc folds the filters first, then closes the picker.
        await page.keyboard.press('Escape');
        await expect(picker.locator('#atrium-fp-filters')).toHaveCount(0);
      }
      await page.keyboard.press('Escape');
      await expect(picker).toBeHidden();
    }
  }
  await page.evaluate(() => localStorage.removeItem('atrium.lang'));
  testInfo.annotations.push({ type: 'fit', description: JSON.stringify(fits) });
  console.log(`picker fit: ${JSON.stringify(fits)}`);
  for (const fit of fits) {
    const where = `${fit.lang} ${fit.width}px`;
    expect(fit.confirmVisible, where).toBe(true);
    expect(fit.countVisible, where).toBe(true);
    expect(fit.toolbarOneRow, where).toBe(true);
    if (fit.width === 1280) {
      expect(fit.unchecked, where).toBeGreaterThanOrEqual(8);
      expect(fit.tilesVisible, where).toBeGreaterThanOrEqual(8);
      expect(fit.perRow, where).toBeGreaterThanOrEqual(4);
    } else {
      expect(fit.tilesVisible, where).toBeGreaterThanOrEqual(2);
    }
  }
});

/** The open confirmation whose text holds `text`. */
const question = (page: Page, text: string | RegExp) =>
  page.locator('.ant-modal-confirm').filter({ hasText: text });

test('every picker action ends somewhere sensible (zh-CN, one check in English)', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  const library = 'image';
  await signInAdmin(page, atrium, '/system/setting');
  const made = await sendLibrary(adminIn(page), library, {
    action: 'categoryEdit',
    id: 0,
    pid: 0,
    title: `走查-${runTag}`,
  });
  const moved = await sendLibrary(adminIn(page), library, {
    action: 'categoryEdit',
    id: 0,
    pid: 0,
    title: `移走-${runTag}`,
  });
  expect(made.code, made.msg).toBe(0);
  expect(moved.code, moved.msg).toBe(0);
  const walk = `走查-${runTag}`;
  const files = Array.from({ length: 12 }, (_, i) => {
    const path = testInfo.outputPath(`walk-${String(i).padStart(2, '0')}-${runTag}.png`);
    writeFileSync(path, solidPng(40, 40, [200 - 10 * i, 60 + 10 * i, 90]));
    return path;
  });

  await formItem(page, '首页横幅').getByRole('button', { name: '选择图片' }).click();
  const picker = page.locator('.atrium-fp-modal');
  const tile = (name: string) => picker.getByRole('checkbox', { name, exact: true });
  const walkName = (i: number) => `walk-${String(i).padStart(2, '0')}-${runTag}.png`;
  await picker.locator('.atrium-fp-side').getByText(walk, { exact: true }).click();
  await picker.locator('.atrium-upload input[type="file"]').setInputFiles(files);
  await expect(tile(walkName(11))).toBeVisible({ timeout: 30_000 });
  await expect(picker.getByText('共 12 条')).toBeVisible();

  // 1. Moving every file of the last page: the last existing page shows, not "暂无记录".
  await picker.locator('.atrium-fp-pagination').getByTitle('2', { exact: true }).click();
  await tile(walkName(1)).click();
  await tile(walkName(0)).click();
  await expect(picker.getByText('已选 2 项')).toBeVisible();
  await picker
    .locator('.atrium-fp-actions')
    .getByRole('button', { name: buttonName('编辑') })
    .click();
  const edit = page.locator('.ant-modal').filter({ hasText: '编辑文件' });
  await edit.getByRole('combobox').click();
  await page
    .locator('.ant-select-item')
    .filter({ hasText: `移走-${runTag}` })
    .click();
  await edit.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.getByText('编辑成功')).toBeVisible();
  await expect(picker.getByText('共 10 条')).toBeVisible();
  await expect(picker.locator('.ant-pagination-item-active')).toHaveText('1');
  await expect(picker.locator('.atrium-fp-card')).toHaveCount(10);
  await expect(picker.getByText('暂无记录')).toHaveCount(0);

  // 2. Replace asks first, naming the place using the file, then says it is done.
  const listed = await sendLibrary(adminIn(page), library, {
    action: 'list',
    page: 1,
    categoryId: made.data.id,
    keywords: runTag,
  });
  const target = listed.data.records.find((r) => r.filename === walkName(11));
  if (!target) throw new Error('walk-11 not listed');
  const room = await send(adminIn(page), 'aigc/chat_room/save', {
    id: 0,
    title: `封面房-${runTag}`,
    cover: target.path,
    description: '',
  });
  expect(room.code, room.msg).toBe(0);
  await picker.locator('.atrium-fp-side').getByText(walk, { exact: true }).click();
  await tile(walkName(11)).click();
  const replacement = testInfo.outputPath(`new-${runTag}.png`);
  writeFileSync(replacement, solidPng(40, 40, [10, 10, 10]));
  await picker.locator('input[type="file"][aria-label="替换"]').setInputFiles(replacement);
  const replace = question(page, `用「new-${runTag}.png」替换「${walkName(11)}」？`);
  await expect(replace).toContainText(`聊天室「封面房-${runTag}」的封面`);
  await replace.getByRole('button', { name: buttonName('替换') }).click();
  await expect(page.getByText(`已替换「${walkName(11)}」，地址不变`)).toBeVisible({
    timeout: 30_000,
  });

  // 3. Delete says the files go to the trash, for the setting's days.
  await tile(walkName(10)).click();
  await picker
    .locator('.atrium-fp-actions')
    .getByRole('button', { name: buttonName('删除') })
    .click();
  const remove = question(
    page,
    '确认删除？所选的 1 个文件将移入回收站，保留 30 天，期间可以恢复。',
  );
  await remove.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(tile(walkName(10))).toHaveCount(0);

  // 4. The trash shows the real thumbnail and opens the file.
  await picker.getByRole('button', { name: buttonName('筛选') }).click();
  await picker.getByRole('button', { name: buttonName('回收站') }).click();
  const trashed = tile(walkName(10));
  await expect(trashed).toBeVisible();
  await expect
    .poll(() => trashed.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  // The open link sits beside the tile (a mouse shortcut; no control inside another).
  const card = picker.locator('.atrium-fp-card', {
    has: page.getByRole('checkbox', { name: walkName(10), exact: true }),
  });
  const opens = await card.locator('.atrium-fp-card-actions a').getAttribute('href');
  expect((await page.request.get(opens ?? '')).status()).toBe(200);
  if (SHOTS) await snap(page, 'trash-zh-1280');
  await picker.getByRole('button', { name: buttonName('返回文件库') }).click();

  // 5. Deleting a category says how many files move where and names the places using them.
  await picker.locator('.atrium-fp-side').getByText(walk, { exact: true }).click();
  await picker.getByRole('button', { name: '删除分类' }).click();
  const drop = question(
    page,
    `确认删除？分类「${walk}」中的 9 个文件将移到「图片库」，文件地址不变。`,
  );
  await expect(drop).toContainText(
    `正在使用的文件：${walkName(11)}（聊天室「封面房-${runTag}」的封面）`,
  );
  if (SHOTS) await snap(page, 'category-delete-zh-1280');
  await drop.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.getByText('删除成功').last()).toBeVisible();
  await expect(picker.locator('.atrium-fp-side').getByText(walk, { exact: true })).toHaveCount(0);

  // In English: the delete question says the same.
  await page.keyboard.press('Escape');
  await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await page.reload();
  await formItem(page, 'Home banners').getByRole('button', { name: 'Select image' }).click();
  await tile(walkName(9)).click();
  await picker.locator('.atrium-fp-actions').getByRole('button', { name: 'Delete' }).click();
  const english = question(
    page,
    'Confirm Delete ? The selected files (1) go to the trash, where they can be restored for 30 days.',
  );
  await expect(english).toBeVisible();
  await english.getByRole('button', { name: 'Cancel' }).click();
  await page.evaluate(() => localStorage.removeItem('atrium.lang'));
});
