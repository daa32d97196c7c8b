import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { snap } from './snap';
import { buttonName, signInAdmin } from './files-support';

/** The head of a real MP4 (an ftyp box), enough for the server's content check. */
function mp4(): Buffer {
  const ftyp = Buffer.from('000000186674797069736f6d0000020069736f6d6d703431', 'hex');
  return Buffer.concat([ftyp, Buffer.alloc(2048, 1)]);
}

/** Picks `file` in the picker a field opens: uploads it, ticks it, confirms. */
async function pickThroughField(page: Page, button: string, file: string, name: string) {
  const editor = page.locator('.ant-drawer');
  await editor.getByRole('button', { name: buttonName(button) }).click();
  const picker = page.locator('.atrium-fp-modal');
  await expect(picker).toBeVisible();
  await picker.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  const card = picker.getByRole('checkbox', { name, exact: true });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.click();
  await picker.getByRole('button', { name: buttonName('确定') }).click();
  await expect(picker).toBeHidden();
}

test('a room: the video field shows intro.mp4, downloads reach members, unsaved edits ask before closing', async ({
  page,
  browser,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  const video = testInfo.outputPath('intro.mp4');
  writeFileSync(video, mp4());
  const guide = testInfo.outputPath('用户 指南.pdf');
  writeFileSync(
    guide,
    Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  );

  await signInAdmin(page, atrium, '/aigc/chat_room');
  await page.getByRole('button', { name: '新建聊天室' }).click();
  const editor = page.getByRole('dialog', { name: '新建聊天室' });
  await editor.getByLabel('标题').fill('Library room');

  // Unsaved edits: closing asks; "取消" keeps the editor and what was typed.
  await editor
    .locator('.ant-drawer-extra')
    .getByRole('button', { name: buttonName('取消') })
    .click();
  const ask = page.locator('.ant-modal-confirm').filter({ hasText: '尚未保存，确定关闭吗？' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: '继续编辑' }).click();
  await expect(ask).toBeHidden();
  await expect(editor.getByLabel('标题')).toHaveValue('Library room');

  // Esc closes the topmost layer only: a sub-dialog, then the picker, never the editor beneath.
  await editor.getByRole('button', { name: buttonName('选择视频') }).click();
  const picker = page.locator('.atrium-fp-modal');
  await expect(picker).toBeVisible();
  await picker.locator('.atrium-fp-side').getByRole('button', { name: '新增分类' }).click();
  const sub = page.locator('.ant-modal').filter({ hasText: '上级分类' });
  await expect(sub).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sub).toBeHidden();
  await expect(picker).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(editor).toBeVisible();
  await expect(ask).toHaveCount(0);

  await pickThroughField(page, '选择视频', video, 'intro.mp4');
  const videoItem = editor.locator('.ant-form-item').filter({ hasText: '介绍视频' });
  await expect(videoItem.getByText('intro.mp4', { exact: true })).toBeVisible();
  await expect(videoItem.locator('body, *').filter({ hasText: /[0-9a-f]{64}/ })).toHaveCount(0);

  await editor.getByRole('button', { name: buttonName('选择视频') }).click();
  await expect(picker).toBeVisible();
  // Names stay legible in the 60 % dialog and at 375 px: tiles wide enough for a name of ten
  // or so characters, the whole name on hover.
  await expect(picker.locator('.atrium-fp-card').first()).toBeVisible();
  for (const [width, least] of [
    [1280, 110],
    [375, 110],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    await expect
      .poll(async () => (await picker.locator('.atrium-fp-name').first().boundingBox())?.width ?? 0)
      .toBeGreaterThanOrEqual(least - 40);
    const card = (await picker.locator('.atrium-fp-card').first().boundingBox())?.width ?? 0;
    expect(card, `tile at ${width}`).toBeGreaterThanOrEqual(least);
    await snap(page, `picker-dialog-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const firstName = picker.locator('.atrium-fp-name').first();
  await expect(firstName).toHaveAttribute('title', (await firstName.textContent()) ?? '');
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();

  await pickThroughField(page, '选择文件', guide, '用户 指南.pdf');
  const downloads = editor.locator('.ant-form-item').filter({ hasText: '资料下载' });
  await expect(downloads.getByText('用户-指南.pdf', { exact: true })).toBeVisible();
  await downloads.scrollIntoViewIfNeeded();
  await snap(page, 'room-fields-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await downloads.scrollIntoViewIfNeeded();
  await snap(page, 'room-fields-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await editor.getByRole('button', { name: buttonName('保存') }).click();
  await expect(editor).toBeHidden();
  // Saved: opening and closing it again asks nothing.
  await page
    .getByRole('row', { name: /Library room/ })
    .getByRole('button', { name: /编辑/ })
    .click();
  const again = page.getByRole('dialog', { name: '编辑聊天室' });
  await expect(again.getByText('intro.mp4', { exact: true })).toBeVisible();
  await again
    .locator('.ant-drawer-extra')
    .getByRole('button', { name: buttonName('取消') })
    .click();
  await expect(again).toBeHidden();
  await expect(ask).toHaveCount(0);

  // Members see the downloads under the room's introduction, by name, and can fetch them.
  const visitor = await browser.newPage();
  await visitor.goto(atrium.url);
  await visitor.getByRole('link', { name: 'Library room' }).click();
  const list = visitor.getByRole('region', { name: '资料下载' });
  const link = list.getByRole('link', { name: '用户-指南.pdf' });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/\/data\/file\/[0-9a-f]{24}\/用户-指南\.pdf$/);
  const fetched = await visitor.request.get(new URL(href, atrium.url).toString());
  expect(fetched.status()).toBe(200);
  expect((await fetched.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await snap(visitor, 'room-downloads-1280');
  await visitor.setViewportSize({ width: 375, height: 812 });
  await snap(visitor, 'room-downloads-375');
  await visitor.close();

  // The same in English.
  await page.getByText('English', { exact: true }).click();
  await page
    .getByRole('row', { name: /Library room/ })
    .getByRole('button', { name: /Edit/ })
    .click();
  const english = page.locator('.ant-drawer');
  await expect(english.getByText('Downloads', { exact: true })).toBeVisible();
  await expect(english.getByText('intro.mp4', { exact: true })).toBeVisible();
  await english.getByText('Downloads', { exact: true }).scrollIntoViewIfNeeded();
  await snap(page, 'room-fields-en-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await snap(page, 'room-fields-en-375');
});
