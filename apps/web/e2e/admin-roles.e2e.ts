import { filterMenu } from '@atrium/shared/rules';
import { adminMenu } from '@atrium/shared/menu';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { snap } from './snap';
import { adminIn, send, sendLibrary } from './api-call';
import {} from './files-support';

async function signIn(page: Page, adminUrl: string, username: string, password: string) {
  await page.goto(`${adminUrl}#/login`);
  await page.getByLabel('用户名', { exact: true }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByRole('navigation', { name: 'menu' })).toBeVisible();
}

test('a role holding only the rooms rule: its admin sees only that menu and is refused the file library', async ({
  page,
  browser,
  atrium,
}) => {
  // Two sessions and many pages: room to finish on a busy machine.
  test.setTimeout(120_000);
  await signIn(page, atrium.adminUrl, 'admin', atrium.adminPassword);

  // The founder builds the role in the editor: dashboard from the menu tree (somewhere to land),
  // the rooms rule typed by hand, and the preview follows as they go.
  await page.goto(`${atrium.adminUrl}#/system/role`);
  await page.getByRole('button', { name: '新建角色' }).click();
  await page.getByLabel('角色名称').fill('Room keepers');
  await page
    .locator('.ant-tree-treenode', { hasText: '仪表盘' })
    .locator('.ant-tree-checkbox')
    .click();
  await page.getByLabel('自定义规则').fill('aigc/chat_room*');
  await page.getByLabel('自定义规则').press('Enter');

  const stored = page.getByTestId('stored-rules');
  await expect(stored.getByText('dashboard*', { exact: true })).toBeVisible();
  await expect(stored.getByText('aigc/chat_room*', { exact: true })).toBeVisible();
  await expect(page.getByTestId('preview-dashboard')).toHaveAttribute('data-shown', 'true');
  await expect(page.getByTestId('preview-system/admin')).toHaveAttribute('data-shown', 'false');
  await expect(page.getByTestId('preview-data/file_manager')).toHaveAttribute(
    'data-shown',
    'false',
  );

  await page.getByRole('button', { name: '创建角色' }).click();
  await expect(page.getByRole('option', { name: /Room keepers/ })).toBeVisible();

  // An administrator holding that role.
  await page.goto(`${atrium.adminUrl}#/system/admin`);
  await page.getByRole('button', { name: '新建管理员' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('用户名').fill('keeper');
  await dialog.getByLabel('密码').fill('Keeper-pass-2026');
  await dialog.getByLabel('角色').click();
  await page.locator('.ant-select-item-option', { hasText: 'Room keepers' }).click();
  // A multiple select stays open for more choices.
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /keeper/ })).toContainText('Room keepers');

  // They sign in elsewhere and see only what the role grants.
  const context = await browser.newContext();
  const keeper = await context.newPage();
  await signIn(keeper, atrium.adminUrl, 'keeper', 'Keeper-pass-2026');
  await expect(keeper).toHaveURL(/#\/dashboard$/);
  const nav = keeper.getByRole('navigation', { name: 'menu' });
  const rules = ['dashboard*', 'aigc/chat_room*'];
  const topLevel = nav.locator(':scope > ul > li.ant-menu-item, :scope > ul > li.ant-menu-submenu');
  await expect(topLevel).toHaveCount(filterMenu(adminMenu, rules).length);
  await expect(nav.getByText('仪表盘', { exact: true })).toBeVisible();
  for (const hidden of ['资料库', '文件管理', '系统管理', '管理员', '会员管理']) {
    await expect(nav.getByText(hidden, { exact: true })).toHaveCount(0);
  }

  // The file library refuses them: the page says so and the server answers 1003.
  await keeper.goto(`${atrium.adminUrl}#/data/file_manager`);
  await expect(keeper.getByText('没有查看文件库的权限')).toBeVisible();
  expect(await sendLibrary(adminIn(keeper), 'image', { action: 'list' })).toMatchObject({
    code: 1003,
  });

  // The room editor's image fields say they can't choose, instead of a picker that fails: no
  // button, no call refused, no toast (SPEC 2.4, 6).
  const refused: string[] = [];
  keeper.on('response', (response) => {
    if (response.url().includes('file_manager')) refused.push(response.url());
  });
  await keeper.goto(`${atrium.adminUrl}#/aigc/chat_room`);
  await keeper.getByRole('button', { name: '新建聊天室' }).click();
  const editor = keeper.getByRole('dialog');
  await expect(editor.getByText('没有查看文件库的权限，无法选择文件').first()).toBeVisible();
  await expect(editor.getByRole('button', { name: /选择图片/ })).toHaveCount(0);
  await expect(keeper.locator('.ant-message-notice')).toHaveCount(0);
  expect(refused).toEqual([]);
  await snap(keeper, 'room-editor-no-library-1280-zh');
  await keeper.setViewportSize({ width: 375, height: 780 });
  await snap(keeper, 'room-editor-no-library-375-zh');
  await keeper.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await keeper.reload();
  await keeper.getByRole('button', { name: 'New room' }).click();
  await expect(
    keeper.getByRole('dialog').getByText('You may not view the file library').first(),
  ).toBeVisible();
  await snap(keeper, 'room-editor-no-library-375-en');
  await keeper.setViewportSize({ width: 1280, height: 800 });
  await snap(keeper, 'room-editor-no-library-1280-en');
  await context.close();

  // The role editor: one file permission ticked alone stays alone.
  await page.goto(`${atrium.adminUrl}#/system/role`);
  await page.getByRole('button', { name: '新建角色' }).click();
  await page
    .locator('.ant-tree-treenode', { hasText: '查看和选择文件' })
    .locator('.ant-tree-checkbox')
    .click();
  await expect(stored.getByText('data/file_manager/view', { exact: true })).toBeVisible();
  await expect(stored.getByText('data*', { exact: true })).toHaveCount(0);
  await snap(page, 'role-editor-1280-zh', { fullPage: true });
  await page.setViewportSize({ width: 375, height: 780 });
  await snap(page, 'role-editor-375-zh', { fullPage: true });
});

test('a view-only role is stored exactly as ticked; its admin sees files but cannot upload, add, edit or delete', async ({
  page,
  browser,
  atrium,
}) => {
  await signIn(page, atrium.adminUrl, 'admin', atrium.adminPassword);
  await page.goto(`${atrium.adminUrl}#/system/role`);
  await page.getByRole('button', { name: '新建角色' }).click();
  await page.getByLabel('角色名称').fill('File viewers');
  await page
    .locator('.ant-tree-treenode', { hasText: '查看和选择文件' })
    .locator('.ant-tree-checkbox')
    .click();
  await page.getByRole('button', { name: '创建角色' }).click();
  await expect(page.getByRole('option', { name: /File viewers/ })).toBeVisible();

  // Stored exactly: the one rule, not its parent.
  const roles = await send(adminIn(page), 'roles/list', {});
  const viewers = roles.data.records.find((r) => r.name === 'File viewers');
  expect(viewers?.rules).toEqual(['data/file_manager/view']);
  const created = await send(adminIn(page), 'admins/create', {
    username: 'viewer',
    password: 'Viewer-pass-2026',
    roleIds: [viewers?.id ?? 0],
  });
  expect(created.code, created.msg).toBe(0);

  // The viewer sees the library, and none of the controls their role does not hold.
  const context = await browser.newContext();
  const viewer = await context.newPage();
  await signIn(viewer, atrium.adminUrl, 'viewer', 'Viewer-pass-2026');
  await viewer.goto(`${atrium.adminUrl}#/data/file_manager`);
  await expect(viewer.locator('.atrium-fp-gallery')).toBeVisible();
  await expect(viewer.locator('.atrium-fp-search')).toBeVisible();
  for (const name of [/上\s*传/, /删\s*除/, /编\s*辑/]) {
    await expect(
      viewer.locator('.atrium-fp-toolbar, .atrium-fp-footer').getByRole('button', { name }),
    ).toHaveCount(0);
  }
  await expect(
    viewer.locator('.atrium-fp-side').getByRole('button', { name: '新增分类' }),
  ).toHaveCount(0);
  await snap(viewer, 'files-view-only-1280');

  // And the server refuses what the page does not offer.
  const listed = await sendLibrary(adminIn(viewer), 'image', {
    action: 'list',
  });
  expect(listed.code).toBe(0);
  for (const body of [
    { action: 'init', name: 'x.png', size: 10, md5: 'a'.repeat(32) },
    { action: 'categoryEdit', id: 0, pid: 0, title: 'Mine' },
    { action: 'fileDelete', id: '1' },
    { action: 'fileEdit', id: '1', categoryId: 0 },
  ] as const) {
    expect((await sendLibrary(adminIn(viewer), 'image', body)).code, body.action).toBe(1003);
  }
  await context.close();
});
