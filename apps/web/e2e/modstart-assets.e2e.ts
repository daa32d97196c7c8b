import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AreaName } from '@atrium/shared/areas';
import { fileManagerRule } from '@atrium/shared/contract/files';
import type { FrameLocator, Page } from '@playwright/test';
import { adminAuth, call } from './api-call';
import { test, expect, type AtriumServer } from './fixtures';
import { actionOf, chunkIndex, writeTextFile } from './files-support';
import { managerBase, modstartRoot, serveModstart } from './modstart-pages';

/*
 * ModStart's own front end against Atrium, unchanged (issue 31): its file-manager dialog
 * (`entry/dataFileManager.js`) and upload button (`common/uploadButton.js`), signed in through
 * Atrium's sign-in alone (its cookie; ModStart sends no token header), in both areas.
 */

test.use({ bypassCSP: true });

const MiB = 1024 * 1024;
const md5Of = (data: Buffer) => createHash('md5').update(data).digest('hex');

interface Uploaded {
  name: string;
  size: number;
  path: string;
  fullPath: string;
}

declare global {
  interface Window {
    uploadedFiles: Uploaded[];
    chosen: { path: string; fullPath: string; filename: string; type: string }[] | null;
    /** ModStart's jQuery, as its pages have it. */
    $: {
      post(
        url: string,
        data: Record<string, unknown>,
        done: (answer: { code: number; msg: string }) => void,
        type: 'json',
      ): void;
    };
  }
}

/** Atrium's own sign-in call, as its login page makes it; the browser keeps what it sets. */
async function signIn(page: Page, atrium: AtriumServer, area: AreaName): Promise<void> {
  const account = { username: `modstart_${area}`, password: 'modstart-Pass-42' };
  if (area === 'member') await call(await adminAuth(atrium), 'members/create', account);
  else {
    const rights = (['view', 'upload', 'edit', 'delete'] as const).map(fileManagerRule);
    await atrium.createAdmin(account.username, account.password, rights);
  }
  const xsrf = 'e2e-modstart';
  await page.context().addCookies([{ name: 'XSRF-TOKEN', value: xsrf, url: atrium.url }]);
  const base = area === 'admin' ? atrium.adminUrl : atrium.url;
  const answer = await page.request.post(`${base}api/auth/login`, {
    headers: { 'X-XSRF-TOKEN': xsrf },
    data: account,
  });
  expect(((await answer.json()) as { code: number }).code).toBe(0);
}

async function openForm(page: Page, atrium: AtriumServer, area: AreaName): Promise<void> {
  await page.goto(`${atrium.url}${modstartRoot.slice(1)}form/${area}/file`);
  await expect(page.locator('#upload input[type="file"]')).toBeAttached();
}

/** Picks a file with ModStart's upload button; what its callback was handed. */
async function upload(page: Page, file: string): Promise<Uploaded> {
  const before = await page.evaluate(() => window.uploadedFiles.length);
  await page.locator('#upload input[type="file"]').setInputFiles(file);
  await expect
    .poll(() => page.evaluate(() => window.uploadedFiles.length), { timeout: 60_000 })
    .toBeGreaterThan(before);
  return page.evaluate((index) => window.uploadedFiles[index] as Uploaded, before);
}

/** Files the upload as ModStart's dataUploadButton does: jQuery posts `save` as a form. */
async function save(page: Page, area: AreaName, uploaded: Uploaded) {
  return page.evaluate(
    ({ server, file }) =>
      new Promise<{ code: number; msg: string }>((resolve) => {
        window.$.post(
          server,
          { action: 'save', path: file.path, name: file.name, size: file.size, categoryId: 0 },
          resolve,
          'json',
        );
      }),
    { server: `${managerBase(area)}/file`, file: uploaded },
  );
}

async function expectStored(page: Page, uploaded: Uploaded, file: string): Promise<void> {
  const served = await page.request.get(uploaded.fullPath);
  expect(served.status()).toBe(200);
  expect(md5Of(await served.body())).toBe(md5Of(readFileSync(file)));
}

/** Every chunk index the page sends (undefined: a one-chunk upload leaves the field out). */
function watchChunks(page: Page): (number | undefined)[] {
  const sent: (number | undefined)[] = [];
  page.on('request', (request) => {
    if ((request.headers()['content-type'] ?? '').startsWith('multipart/form-data')) {
      sent.push(chunkIndex(request));
    }
  });
  return sent;
}

/** The item of a file in the dialog's list. */
const item = (g: FrameLocator, name: string) => g.locator('.records .item', { hasText: name });
const node = (g: FrameLocator, name: string) =>
  g.locator('.el-tree-node__label', { hasText: new RegExp(`^${name}$`) });

/** The label of the tree's current category (the one "Edit/Delete Category" act on). */
const currentCategory = (g: FrameLocator) =>
  g.locator('.el-tree-node.is-current > .el-tree-node__content .el-tree-node__label');

/**
 * Selects a category of the tree, opening the root first (a click on it also folds it), and waits
 * for the list to be the category's: without the file named `outside`.
 */
async function selectCategory(g: FrameLocator, name: string, outside?: string): Promise<void> {
  // A reopened dialog draws its tree again, folded, when its categories arrive: a category seen
  // a moment earlier may be folded away by the time of the click. And the dialog never drops a
  // list it asked for before: one asked for earlier (after an edit, say) that answers last
  // replaces the category's. So click again until the tree marks the category current (the one
  // the dialog's actions apply to) and the list is its own.
  await expect(async () => {
    if (!(await node(g, name).isVisible())) await node(g, '文件库').click();
    await node(g, name).click({ timeout: 1_000 });
    await expect(currentCategory(g)).toHaveText(name, { timeout: 1_000 });
    if (outside) await expect(item(g, outside)).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Answers ModStart's "Confirm Delete ?" box (Element UI's MessageBox) and waits for it to close,
 * so the next question meets a closed box.
 */
async function confirmBox(g: FrameLocator): Promise<void> {
  const box = g.locator('.el-message-box');
  await box.getByRole('button', { name: '确定' }).click();
  await expect(box).toBeHidden();
}

/** Names a category in the dialog's Add/Edit Category form (under the selected one). */
async function nameCategory(g: FrameLocator, button: string, title: string): Promise<void> {
  await g.locator(`a[title="${button}"]`).click();
  const form = g.getByRole('dialog', { name: button });
  await form.locator('.el-form-item', { hasText: 'Name' }).locator('input').fill(title);
  await form.getByRole('button', { name: 'Confirm' }).click();
  await expect(node(g, title)).toBeVisible();
}

for (const area of ['admin', 'member'] as const) {
  test(`ModStart's own dialog and upload button work against Atrium (${area})`, async ({
    page,
    atrium,
  }, testInfo) => {
    test.setTimeout(120_000);
    // ModStart asks "Confirm Delete ?" with the browser's confirm().
    page.on('dialog', (dialog) => void dialog.accept());
    await serveModstart(page);
    await signIn(page, atrium, area);
    await openForm(page, atrium, area);
    const chunks = watchChunks(page);

    // One chunk: WebUploader leaves out the chunk fields; `save` files it (a jQuery form post).
    const small = testInfo.outputPath('small.txt');
    writeTextFile(small, 200 * 1024, `modstart ${area} small`);
    const one = await upload(page, small);
    expect(chunks).toEqual([undefined]);
    expect(await save(page, area, one)).toMatchObject({ code: 0 });
    await expectStored(page, one, small);

    const big = testInfo.outputPath('big.txt');
    writeTextFile(big, 11 * MiB, `modstart ${area} big`);
    chunks.length = 0;
    // Three chunks, the last refused on the way: the page is left; opened again, the same file
    // resumes, ModStart re-sending the last chunk held (1), then the missing one (2).
    const cut = `**${managerBase(area)}/file`;
    await page.route(cut, (route) =>
      chunkIndex(route.request()) === 2 ? route.abort() : route.fallback(),
    );
    await page.locator('#upload input[type="file"]').setInputFiles(big);
    await expect.poll(() => chunks.includes(2), { timeout: 60_000 }).toBe(true);
    await openForm(page, atrium, area);
    await page.unroute(cut);
    chunks.length = 0;
    const init = page.waitForResponse((response) => actionOf(response.request()) === 'init');
    const three = await upload(page, big);
    const resumed = (await (await init).json()) as { data: { chunkUploaded: number } };
    expect(resumed.data.chunkUploaded).toBe(2);
    expect(chunks).toEqual([1, 2]);
    expect(await save(page, area, three)).toMatchObject({ code: 0 });
    await expectStored(page, three, big);

    // The "File Gallery" selector: the dialog lists both; categories made, renamed, a file
    // moved into one, then chosen and confirmed into the form.
    await page.locator('#open-gallery').click();
    const g = page.frameLocator('#gallery iframe');
    await expect(item(g, 'small.txt')).toBeVisible();
    await expect(item(g, 'big.txt')).toBeVisible();
    await nameCategory(g, 'Add Category', 'Docs');
    await selectCategory(g, 'Docs');
    await nameCategory(g, 'Edit Category', 'Papers');
    await expect(node(g, 'Docs')).toHaveCount(0);
    await node(g, '文件库').click();
    await item(g, 'small.txt').click();
    await g.locator('a[title="Edit"]').click();
    const edit = g.getByRole('dialog', { name: 'Edit File' });
    await edit.locator('.el-select').click();
    await g.locator('.el-select-dropdown__item:visible', { hasText: 'Papers' }).click();
    await edit.getByRole('button', { name: 'Confirm' }).click();
    await expect(edit).toBeHidden();
    await selectCategory(g, 'Papers', 'big.txt');
    await item(g, 'small.txt').click();
    await g.locator('.el-dialog__footer').getByRole('button', { name: 'Confirm' }).last().click();
    await expect
      .poll(() => page.evaluate(() => window.chosen))
      .toEqual([
        expect.objectContaining({ path: one.path, fullPath: one.fullPath, filename: 'small.txt' }),
      ]);
    await expect(page.locator('#file-value')).toHaveValue(one.path);

    // Deleted from the dialog: the file (confirmed), then its emptied category.
    await page.locator('#open-gallery').click();
    await selectCategory(g, 'Papers', 'big.txt');
    await item(g, 'small.txt').click();
    await g.locator('a[title="Delete"]').click();
    await confirmBox(g);
    await expect(item(g, 'small.txt')).toHaveCount(0);
    await expect(currentCategory(g)).toHaveText('Papers');
    await g.locator('a[title="Delete Category"]').click();
    await confirmBox(g);
    await expect(node(g, 'Papers')).toHaveCount(0);
    await expect(item(g, 'big.txt')).toBeVisible();
  });
}
