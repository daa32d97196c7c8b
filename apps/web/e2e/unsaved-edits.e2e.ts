import type { Page } from '@playwright/test';
import { adminIn, call, send } from './api-call';
import { expect, test } from './fixtures';
import { SHOTS, snap } from './snap';
import { buttonName, signInAdmin } from './files-support';

/**
 * Unsaved edits are never dropped without a question (issue 28, point 8): the site settings page
 * left by the menu or the browser's back, and the model dialog closed by Esc.
 */

const shoot = async (page: Page, name: string) => {
  if (SHOTS) await snap(page, `${name}`);
};

const leaveZh = '本页有尚未保存的修改，确定离开吗？离开后所做的修改将会丢失。';
const closeZh = '修改尚未保存，确定关闭吗？关闭后所做的修改将会丢失。';

/** The question on screen (antd keeps a closed one in the page while it fades). */
const question = (page: Page, text: string) =>
  page.locator('.ant-modal-confirm').filter({ hasText: text }).filter({ visible: true });

async function answer(page: Page, text: string, button: string): Promise<void> {
  const asked = question(page, text);
  await expect(asked).toBeVisible();
  await asked.getByRole('button', { name: button }).click();
  await expect(asked).toBeHidden();
}

test('the settings page asks before the menu or back drops its edits, the model dialog before Esc', async ({
  page,
  browser,
  atrium,
}) => {
  test.setTimeout(120_000);
  await signInAdmin(page, atrium, '/dashboard');
  const nav = page.getByRole('navigation', { name: 'menu' });
  await nav.getByText('系统管理').click();
  await nav.getByRole('link', { name: '系统设置' }).click();
  await expect(page).toHaveURL(/#\/system\/setting$/);
  const name = page.getByLabel('站点名称');
  // The worker's server is shared with other specs, which may have renamed the site already.
  const before = await send(adminIn(page), 'setting/get', {});
  const storedName = before.data.siteName;
  await expect(name).toHaveValue(storedName);

  // Untouched, the page goes without a word; typed in, it asks.
  await nav.getByRole('link', { name: '上传设置' }).click();
  await expect(page).toHaveURL(/#\/system\/upload$/);
  await page.goBack();
  await expect(page).toHaveURL(/#\/system\/setting$/);
  await name.fill('Atrium Garden');

  await nav.getByRole('link', { name: '上传设置' }).click();
  await expect(question(page, leaveZh)).toBeVisible();
  await shoot(page, 'unsaved-leave-zh-CN-1280');
  await answer(page, leaveZh, '继续编辑');
  await expect(page).toHaveURL(/#\/system\/setting$/);
  await expect(name).toHaveValue('Atrium Garden');

  // The browser's back asks the same, and staying keeps the page and its edits.
  await page.evaluate(() => history.back());
  await answer(page, leaveZh, '继续编辑');
  await expect(page).toHaveURL(/#\/system\/setting$/);
  await expect(name).toHaveValue('Atrium Garden');

  await page.evaluate(() => history.back());
  await answer(page, leaveZh, '放弃修改');
  // Back from where the menu led: the dashboard the page was opened from.
  await expect(page).toHaveURL(/#\/dashboard$/);
  // Nothing was saved: the stored name is the old one.
  const stored = await send(adminIn(page), 'setting/get', {});
  expect(stored.data.siteName).toBe(storedName);

  // The model dialog: Esc with a typed model asks; keeping it keeps the text.
  await call({ area: 'admin', page }, 'aigc/provider/save', {
    id: 0,
    name: 'Unsaved test',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: '',
  });
  await nav.getByText('AI 内容').click();
  await nav.getByRole('link', { name: 'AI 模型' }).click();
  await page.getByRole('button', { name: '添加模型' }).last().click();
  const dialog = page.getByRole('dialog', { name: '添加模型' });
  // Opened and closed untouched: no question.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: '添加模型' }).last().click();
  await dialog.getByLabel('显示名称').fill('Draft model');
  await dialog.getByLabel('显示名称').press('Escape');
  await expect(question(page, closeZh)).toBeVisible();
  await shoot(page, 'unsaved-close-zh-CN-1280');
  await answer(page, closeZh, '继续编辑');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('显示名称')).toHaveValue('Draft model');
  await dialog.getByLabel('显示名称').press('Escape');
  await answer(page, closeZh, '放弃修改');
  await expect(dialog).toBeHidden();

  // In English, at 375 px: the menu in its drawer, the question in English.
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 375, height: 812 },
    reducedMotion: 'reduce',
  });
  const small = await context.newPage();
  try {
    await signInAdmin(small, atrium, '/system/setting');
    const field = small.getByLabel('Site name');
    await expect(field).toHaveValue(storedName);
    await field.fill('Atrium Garden');
    await small.getByRole('button', { name: 'Open menu' }).click();
    await small
      .getByRole('navigation', { name: 'menu' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    const leaveEn = 'This page has changes that are not saved. Leave it? The changes will be lost.';
    await expect(question(small, leaveEn)).toBeVisible();
    await shoot(small, 'unsaved-leave-en-375');
    await answer(small, leaveEn, 'Keep editing');
    await expect(small).toHaveURL(/#\/system\/setting$/);
    await expect(field).toHaveValue('Atrium Garden');
    await small.getByRole('button', { name: buttonName('Save', { whole: true }) }).click();
    await expect(small.getByText('Save Success')).toBeVisible();
    // Saved, it goes without a question.
    await small.evaluate(() => history.back());
    await expect(small).not.toHaveURL(/#\/system\/setting$/);
    await expect(question(small, leaveEn)).toHaveCount(0);
  } finally {
    await context.close();
  }
  // Put the name back for the specs that share this server.
  const current = await send(adminIn(page), 'setting/get', {});
  await send(adminIn(page), 'setting/save', {
    settings: { ...current.data, siteName: storedName },
  });
});
