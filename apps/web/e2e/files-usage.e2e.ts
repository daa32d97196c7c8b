import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { snap } from './snap';
import { adminAuth, adminIn, call, callLibrary, send, sendLibrary, signedIn } from './api-call';
import { buttonName, signInAdmin, solidPng } from './files-support';

// The worker's server is shared with other spec files: names unique to this run.
const runTag = Date.now().toString(36);
const coverName = `cover-${runTag}.png`;
const spareName = `spare-${runTag}.png`;
const roomTitle = `Usage room ${runTag}`;

const card = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });
const actions = (page: Page) => page.locator('.atrium-fp-actions');

test('shows where a file is used, filters unused files, names the places before deleting, and restores from the trash', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  await signInAdmin(page, atrium, '/data/file_manager?library=image');
  const cover = testInfo.outputPath(coverName);
  const spare = testInfo.outputPath(spareName);
  writeFileSync(cover, solidPng(64, 48, [200, 80, 40]));
  writeFileSync(spare, solidPng(48, 64, [40, 120, 200]));
  await page.locator('.atrium-upload input[type="file"]').setInputFiles([cover, spare]);
  await expect(card(page, coverName)).toBeVisible();
  await expect(card(page, spareName)).toBeVisible();

  // A room takes the first image as its cover, through the admin API as the room editor saves it.
  const listed = await sendLibrary(adminIn(page), 'image', { action: 'list' });
  const coverFile = listed.data.records.find((r) => r.filename === coverName);
  expect(coverFile).toBeDefined();
  const room = await send(adminIn(page), 'aigc/chat_room/save', {
    id: 0,
    title: roomTitle,
    cover: coverFile?.path,
  });
  expect(room.code, room.msg).toBe(0);

  await page.reload();
  const used = card(page, coverName);
  await expect(used.locator('.atrium-fp-used')).toHaveText('1 处使用');
  await expect(card(page, spareName).locator('.atrium-fp-used')).toHaveCount(0);
  await used.click();
  const details = page.getByRole('definition').filter({ hasText: `聊天室「${roomTitle}」的封面` });
  await expect(details).toBeVisible();
  await snap(page, 'files-used-by-1280-zh');

  // Unused only (behind the toolbar's Filters, issue 28): the cover drops out, the spare stays.
  await page.getByRole('button', { name: buttonName('筛选') }).click();
  await page.getByRole('checkbox', { name: '仅看未使用' }).check();
  await expect(card(page, spareName)).toBeVisible();
  await expect(card(page, coverName)).toHaveCount(0);
  await page.getByRole('checkbox', { name: '仅看未使用' }).uncheck();
  await expect(card(page, coverName)).toBeVisible();

  // Deleting the used file names the room first; confirmed, it goes to the trash. (The selection
  // outlives the filter: the cover is still checked.)
  await expect(card(page, coverName)).toHaveAttribute('aria-checked', 'true');
  await actions(page)
    .getByRole('button', { name: buttonName('删除') })
    .click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '所选文件正在使用' });
  await expect(dialog).toContainText(`聊天室「${roomTitle}」的封面`);
  await snap(page, 'files-delete-used-1280-zh');
  await dialog.getByRole('button', { name: buttonName('确定') }).click();
  await expect(card(page, coverName)).toHaveCount(0);

  await page.getByRole('button', { name: buttonName('回收站') }).click();
  await expect(page.getByText(/文件删除后在回收站保留 30 天/)).toBeVisible();
  await card(page, coverName).click();
  await expect(page.getByText(new RegExp(`${coverName}：删除于`))).toBeVisible();
  await snap(page, 'files-trash-1280-zh');
  await page.setViewportSize({ width: 375, height: 780 });
  await snap(page, 'files-trash-375-zh');
  await page.getByRole('button', { name: buttonName('恢复') }).click();
  await expect(card(page, coverName)).toHaveCount(0);
  await page.getByRole('button', { name: buttonName('返回文件库') }).click();
  await expect(card(page, coverName).locator('.atrium-fp-used')).toHaveText('1 处使用');
  await card(page, coverName).click();
  await expect(details).toBeVisible();
  await snap(page, 'files-used-by-375-zh');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Replace in place: a new version at the same address, its preview follows at once.
  const thumb = card(page, coverName).locator('img');
  const before = await thumb.getAttribute('src');
  const newer = testInfo.outputPath(`newer-${coverName}`);
  writeFileSync(newer, solidPng(64, 48, [20, 160, 60]));
  await expect(card(page, coverName)).toHaveAttribute('aria-checked', 'true');
  await page.locator('.atrium-fp-actions input[type="file"]').setInputFiles(newer);
  // Asked first, naming the room (issue 28).
  const replacing = page
    .locator('.ant-modal-confirm')
    .filter({ hasText: `聊天室「${roomTitle}」的封面` });
  await replacing.getByRole('button', { name: buttonName('替换') }).click();
  await expect(page.getByText(`已替换「${coverName}」，地址不变`)).toBeVisible();
  await expect(thumb).not.toHaveAttribute('src', before ?? '');
  const served = await page.evaluate(async (path) => {
    const res = await fetch(path, { cache: 'no-store' });
    return Array.from(new Uint8Array(await res.arrayBuffer()));
  }, coverFile?.path ?? '');
  expect(Buffer.from(served).equals(solidPng(64, 48, [20, 160, 60]))).toBe(true);
  await snap(page, 'files-replaced-1280-zh');

  // The same in English.
  await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await page.reload();
  await expect(card(page, coverName).locator('.atrium-fp-used')).toHaveText('Used by 1');
  await card(page, coverName).click();
  await expect(
    page.getByRole('definition').filter({ hasText: `Room “${roomTitle}”: cover` }),
  ).toBeVisible();
  await snap(page, 'files-used-by-375-en');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'files-used-by-1280-en');
  await actions(page)
    .getByRole('button', { name: /Delete/ })
    .click();
  await expect(page.locator('.ant-modal').filter({ hasText: 'are in use:' })).toContainText(
    `Room “${roomTitle}”: cover`,
  );
  await snap(page, 'files-delete-used-1280-en');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: /Filters/ }).click();
  await page.getByRole('button', { name: /Trash/ }).click();
  await expect(page.getByText(/Files stay in the trash for 30 days/)).toBeVisible();
  await snap(page, 'files-trash-1280-en');
  await page.setViewportSize({ width: 375, height: 780 });
  await snap(page, 'files-trash-375-en');
  await page.evaluate(() => localStorage.removeItem('atrium.lang'));

  await send(adminIn(page), 'aigc/chat_room/delete', { id: room.data.id });
});

test('the upload settings set how many days the trash keeps files', async ({ page, atrium }) => {
  await signInAdmin(page, atrium, '/system/upload');
  const days = page.getByRole('spinbutton', { name: '回收站保留天数' });
  await expect(days).toHaveValue('30');
  await expect(page.getByText('删除的文件在回收站中保留这么多天')).toBeVisible();
  await days.scrollIntoViewIfNeeded();
  await snap(page, 'upload-settings-trash-1280-zh');
  await page.setViewportSize({ width: 375, height: 780 });
  await days.scrollIntoViewIfNeeded();
  await snap(page, 'upload-settings-trash-375-zh');
  await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await page.reload();
  const en = page.getByRole('spinbutton', { name: 'Days in the trash' });
  await en.scrollIntoViewIfNeeded();
  await snap(page, 'upload-settings-trash-375-en');
  await page.setViewportSize({ width: 1280, height: 800 });
  await en.scrollIntoViewIfNeeded();
  await snap(page, 'upload-settings-trash-1280-en');
  await page.evaluate(() => localStorage.removeItem('atrium.lang'));
});

test("a member's Files page shows their own places: the avatar, by the member's name", async ({
  page,
  atrium,
}, testInfo) => {
  const member = { username: `usage${runTag}`, password: 'usage-Member-pass-42' };
  await call(await adminAuth(atrium), 'members/create', member);
  const signed = await signedIn(atrium.url, 'member', member);
  const { token } = signed;
  await page.context().addCookies([{ name: 'api-token', value: token, url: atrium.url }]);

  await page.goto(`${atrium.url}#/files`);
  const avatarName = `me-${runTag}.png`;
  const avatar = testInfo.outputPath(avatarName);
  writeFileSync(avatar, solidPng(40, 40, [120, 60, 200]));
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(avatar);
  await expect(card(page, avatarName)).toBeVisible();
  const listed = await callLibrary(signed, 'image', { action: 'list' });
  const path = listed.records.find((r) => r.filename === avatarName)?.path ?? '';
  await call(signed, 'account/profile/save', { nickname: 'Ann', avatar: path });

  await page.reload();
  await expect(card(page, avatarName).locator('.atrium-fp-used')).toHaveText('1 处使用');
  await card(page, avatarName).click();
  await expect(page.getByRole('definition').filter({ hasText: 'Ann 的头像' })).toBeVisible();
  await snap(page, 'member-files-used-by-1280-zh');
  await page.setViewportSize({ width: 375, height: 780 });
  await snap(page, 'member-files-used-by-375-zh');
  await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await page.reload();
  await card(page, avatarName).click();
  await expect(page.getByRole('definition').filter({ hasText: 'Avatar of Ann' })).toBeVisible();
  await snap(page, 'member-files-used-by-375-en');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'member-files-used-by-1280-en');
  await page.evaluate(() => localStorage.removeItem('atrium.lang'));
});
