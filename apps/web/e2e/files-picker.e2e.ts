import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { snap } from './snap';
import { adminIn, sendLibrary } from './api-call';
import { buttonName, signInAdmin, solidPng } from './files-support';

interface Picked {
  items: {
    category?: string;
    filename?: string;
    name?: string;
    path: string;
    fullPath: string;
    type: string;
  }[];
}

test.describe.configure({ mode: 'serial' });

// The worker's server is shared with other spec files: names unique to this run keep this file's
// cards apart from images other specs uploaded.
const runTag = Date.now().toString(36);
const png = (color: string) => `${color}-${runTag}.png`;

/** What the selector page posted with Confirm, oldest first. */
async function picked(page: Page): Promise<Picked[]> {
  return page.evaluate(() => (window as unknown as { __picked: Picked[] }).__picked);
}

const card = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });
const toolbar = (page: Page) => page.locator('.atrium-fp-actions');
const question = (page: Page) => page.locator('.ant-modal').filter({ hasText: '确认删除？' });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const store = window as unknown as { __picked: unknown[] };
    store.__picked = [];
    window.addEventListener('message', (event) => store.__picked.push(event.data));
  });
});

test('the image library: upload, select with max 3 and reverse order, then max 1, and a custom link', async ({
  page,
  atrium,
}, testInfo) => {
  const files = ['red', 'green', 'blue', 'amber'].map((name, i) => {
    const path = testInfo.outputPath(png(name));
    writeFileSync(path, solidPng(48, 32, [i * 60, 200 - i * 40, 80 + i * 30]));
    return path;
  });
  await signInAdmin(page, atrium, '/data/file_manager/select/image?max=3');
  await expect(page.getByRole('button', { name: /上\s*传/ })).toBeVisible();
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(files);
  for (const name of [png('red'), png('green'), png('blue'), png('amber')])
    await expect(card(page, name)).toBeVisible({ timeout: 30_000 });
  await expect(card(page, png('red')).locator('img')).toHaveAttribute('src', /.+/);

  await card(page, png('red')).click();
  await expect(page.getByText('倒序选择')).toHaveCount(0);
  await card(page, png('green')).click();
  await card(page, png('blue')).click();
  await card(page, png('amber')).click();
  await expect(page.getByText('最多选择 3 项')).toBeVisible();
  await expect(card(page, png('amber'))).toHaveAttribute('aria-checked', 'false');
  await page.getByText('倒序选择').click();
  await page.getByRole('button', { name: buttonName('确定') }).click();
  await expect.poll(async () => (await picked(page)).length).toBe(1);
  const [first] = await picked(page);
  expect(first?.items.map((i) => i.filename)).toEqual([png('blue'), png('green'), png('red')]);
  expect(first?.items[0]).toMatchObject({ category: 'image', type: 'png' });
  expect(first?.items[0]?.fullPath).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/data\//);

  await page.goto(`${atrium.adminUrl}#/data/file_manager/select/image?max=1`);
  await card(page, png('red')).click();
  await card(page, png('green')).click();
  await expect(card(page, png('red'))).toHaveAttribute('aria-checked', 'false');
  await expect(card(page, png('green'))).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('button', { name: buttonName('确定') }).click();
  await expect
    .poll(async () => (await picked(page)).at(-1)?.items.map((i) => i.filename))
    .toEqual([png('green')]);

  await page.getByRole('tab', { name: '自定义链接' }).click();
  await page.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.getByText('请输入', { exact: true })).toBeVisible();
  await page.getByLabel('链接地址').fill('https://example.com/cat.png');
  await page.getByRole('button', { name: buttonName('确定') }).click();
  await expect
    .poll(async () => (await picked(page)).at(-1)?.items)
    .toEqual([
      {
        name: '',
        path: 'https://example.com/cat.png',
        fullPath: 'https://example.com/cat.png',
        type: '',
      },
    ]);
});

test('categories: add, edit, move files in, delete; files: delete after confirming', async ({
  page,
  atrium,
}) => {
  await signInAdmin(page, atrium, '/data/file_manager');
  await expect(card(page, png('red'))).toBeVisible();
  const side = page.locator('.atrium-fp-side');
  await expect(side.getByRole('button', { name: '编辑分类' })).toBeDisabled();
  await expect(side.getByRole('button', { name: '删除分类' })).toBeDisabled();

  await side.getByRole('button', { name: '新增分类' }).click();
  let dialog = page.locator('.ant-modal').filter({ hasText: '新增分类' });
  await dialog.getByLabel('名称').fill('Holidays');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  await side.getByText('Holidays').click();
  await side.getByRole('button', { name: '新增分类' }).click();
  dialog = page.locator('.ant-modal').filter({ hasText: '新增分类' });
  await dialog.getByLabel('名称').fill('Beach');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(side.getByText('Beach')).toBeVisible();

  await side.getByText('Beach').click();
  await side.getByRole('button', { name: '编辑分类' }).click();
  dialog = page.locator('.ant-modal').filter({ hasText: '编辑分类' });
  await expect(dialog.getByLabel('名称')).toHaveValue('Beach');
  await dialog.getByLabel('名称').fill('Seaside');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(side.getByText('Seaside')).toBeVisible();
  await expect(side.getByText('Beach')).toHaveCount(0);

  // Move two files into Holidays.
  await card(page, png('red')).click();
  await card(page, png('blue')).click();
  await toolbar(page)
    .getByRole('button', { name: buttonName('编辑') })
    .click();
  dialog = page.locator('.ant-modal').filter({ hasText: '编辑文件' });
  await dialog.getByRole('combobox').click();
  await page.locator('.ant-select-dropdown').getByTitle('Holidays').click();
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page.getByText('编辑成功')).toBeVisible();
  await side.getByText('Holidays').click();
  await expect(card(page, png('red'))).toBeVisible();
  await expect(card(page, png('blue'))).toBeVisible();
  await expect(card(page, png('green'))).toHaveCount(0);

  // Delete the Seaside category, asked first; cancel keeps it.
  await side.getByText('Seaside').click();
  await side.getByRole('button', { name: '删除分类' }).click();
  await question(page)
    .getByRole('button', { name: buttonName('取消') })
    .click();
  await expect(side.getByText('Seaside')).toBeVisible();
  await side.getByRole('button', { name: '删除分类' }).click();
  await question(page)
    .getByRole('button', { name: buttonName('确定') })
    .click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(side.getByText('Seaside')).toHaveCount(0);

  // Delete a file from the root view.
  await expect(toolbar(page).getByRole('button', { name: buttonName('删除') })).toBeDisabled();
  await card(page, png('amber')).click();
  await toolbar(page)
    .getByRole('button', { name: buttonName('删除') })
    .click();
  await question(page)
    .getByRole('button', { name: buttonName('确定') })
    .click();
  await expect(card(page, png('amber'))).toHaveCount(0);
  await expect(card(page, png('green'))).toBeVisible();
});

test('narrow screens fold the category menu behind a toggle; screenshots at 1280 and 375 px', async ({
  page,
  atrium,
}) => {
  await signInAdmin(page, atrium, '/data/file_manager/select/image?max=3');
  await expect(card(page, png('red'))).toBeVisible();
  await card(page, png('red')).click();
  await card(page, png('green')).click();
  await snap(page, 'files-picker-1280', { fullPage: true });
  await page.goto(`${atrium.adminUrl}#/data/file_manager`);
  await expect(card(page, png('red'))).toBeVisible();
  await snap(page, 'files-admin-1280', { fullPage: true });
  // The page reached by a hash change settles its tree after the list shows: open once it has.
  await expect(page.locator('.atrium-fp-side').getByText('Holidays')).toBeVisible();
  const dialog = page.locator('.ant-modal').filter({ hasText: '新增分类' });
  // One click, however long the dialog takes to show: a second click while it appears lands on
  // its mask and closes it (a CI run on a machine at load 9.6 saw the retried click do exactly
  // that). 3 of 3 runs alone and 15 of 15 on 3 workers beside two busy loops showed it at once.
  await page.locator('.atrium-fp-side').getByRole('button', { name: '新增分类' }).click();
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await snap(page, 'files-add-category-1280');
  // Closed from the keyboard (Esc): a click on its close button waits for that button to be
  // visible, and on a loaded machine (CI at load 9.5) the dialog had gone by then, leaving the
  // click waiting out the test's time.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.setViewportSize({ width: 375, height: 812 });
  const toggle = page.locator('.atrium-fp-fold');
  await expect(toggle).toBeVisible();
  await expect(page.locator('.atrium-fp-side')).toHaveCount(0);
  await snap(page, 'files-admin-375', { fullPage: true });
  await toggle.click();
  await expect(page.locator('.atrium-fp-side').getByText('Holidays')).toBeVisible();
  await snap(page, 'files-admin-375-menu', { fullPage: true });
  await page.locator('.atrium-fp-side').getByText('Holidays').click();
  await expect(page.locator('.atrium-fp-side')).toHaveCount(0);
  await expect(toggle).toContainText('Holidays');
  await expect(card(page, png('red'))).toBeVisible();
  await expect(card(page, png('green'))).toHaveCount(0);

  await page.goto(`${atrium.adminUrl}#/data/file_manager/select/image?max=3`);
  await expect(card(page, png('red'))).toBeVisible();
  await snap(page, 'files-picker-375', { fullPage: true });

  // The picker's own colours follow the dark theme too.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('switch', { name: '深色模式' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await snap(page, 'files-picker-dark-1280', { fullPage: true });
});

test('files dropped on the gallery and images pasted upload into the current category; search, details and numbers', async ({
  page,
  atrium,
}) => {
  await signInAdmin(page, atrium, '/data/file_manager/select/image?max=3');
  await expect(card(page, png('red'))).toBeVisible();
  await page.locator('.atrium-fp-side').getByText('Holidays').click();
  await expect(page.locator('.atrium-fp-side .ant-tree-node-selected')).toContainText('Holidays');

  // A drag carrying a file: the gallery says where it goes, then takes it.
  const dropped = `dropped-${runTag}.png`;
  const bytes = [...solidPng(64, 40, [30, 160, 90])];
  const transfer = await page.evaluateHandle(
    ({ name, bytes }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/png' }));
      return data;
    },
    { name: dropped, bytes },
  );
  const gallery = page.locator('.atrium-fp-main');
  await gallery.dispatchEvent('dragenter', { dataTransfer: transfer });
  await gallery.dispatchEvent('dragover', { dataTransfer: transfer });
  await expect(page.getByText('松开即可上传到「Holidays」')).toBeVisible();
  await snap(page, 'files-drop-1280');
  await gallery.dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByText('松开即可上传到「Holidays」')).toBeHidden();
  await expect(card(page, dropped)).toBeVisible({ timeout: 30_000 });

  // A pasted screenshot (browsers call it image.png) gets a name of its own.
  await page.evaluate(
    (bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    },
    [...solidPng(50, 30, [200, 120, 20])],
  );
  const pasted = page.getByRole('checkbox', { name: /^pasted-\d{8}-\d{6}\.png$/ });
  await expect(pasted).toBeVisible({ timeout: 30_000 });
  // A file of a type the library refuses is refused as the button refuses it.
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['%PDF-1.4'], 'notes.pdf', { type: 'application/pdf' }));
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  });
  await expect(page.getByText(/文件类型不合法/).first()).toBeVisible();

  // Both landed in Holidays and nowhere else.
  const listed = await sendLibrary(adminIn(page), 'image', {
    action: 'list',
    page: 1,
    keywords: 'pasted-',
  });
  expect(listed.data.records).toHaveLength(1);
  expect(listed.data.records[0]?.categoryId).toBeGreaterThan(0);

  // Search by name across the library, choose in order: the tiles say 1, 2.
  await page
    .locator('.atrium-fp-side')
    .getByText(/图片库|Image Gallery/)
    .click();
  await page.getByRole('searchbox', { name: '按名称搜索' }).fill(runTag);
  await page.getByRole('searchbox', { name: '按名称搜索' }).press('Enter');
  await expect(card(page, png('blue'))).toBeVisible();
  await expect(card(page, dropped)).toBeVisible();
  await expect(pasted).toHaveCount(0);
  await card(page, dropped).click();
  await card(page, png('blue')).click();
  await expect(card(page, dropped).locator('.atrium-fp-order')).toHaveText('1');
  await expect(card(page, png('blue')).locator('.atrium-fp-order')).toHaveText('2');
  const details = page.getByLabel('文件详情');
  await expect(details).toContainText(png('blue'));
  await expect(details).toContainText('48 × 32');
  await expect(details).toContainText('PNG');
  await snap(page, 'files-search-1280', { fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await snap(page, 'files-search-375', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: buttonName('确定') }).click();
  await expect
    .poll(async () => (await picked(page)).at(-1)?.items.map((i) => i.filename))
    .toEqual([dropped, png('blue')]);
  const [first] = (await picked(page)).at(-1)?.items ?? [];
  expect(first?.path).toMatch(new RegExp(`^/data/image/[0-9a-f]{24}/dropped-${runTag}\\.png$`));
});

test('members: "My files" needs a signed-in member', async ({ page, atrium }) => {
  await page.goto(`${atrium.url}#/files`);
  await expect(page).toHaveURL(/#\/login\?redirect=%2Ffiles/);
});
