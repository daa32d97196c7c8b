import { test, expect } from './fixtures';

test('an admin whose role holds some rules sees only those menu items and their parents', async ({
  page,
  atrium,
}) => {
  await atrium.createAdmin('editor', 'Editor-pass-1234', ['system/role', 'data/file_manager/view']);

  await page.goto(`${atrium.adminUrl}#/login`);
  await page.getByLabel('用户名', { exact: true }).fill('editor');
  await page.getByLabel('密码', { exact: true }).fill('Editor-pass-1234');
  await page.getByRole('button', { name: /登\s*录/ }).click();

  // "#/" opens the first page of the menu the role allows.
  await expect(page).toHaveURL(/#\/data\/file_manager$/);

  const nav = page.getByRole('navigation', { name: 'menu' });
  await expect(nav.getByText('资料库')).toBeVisible();
  await expect(nav.getByText('系统管理')).toBeVisible();
  await nav.getByText('系统管理').click();
  await expect(nav.getByRole('link', { name: '角色权限' })).toBeVisible();
  await expect(nav.getByRole('link', { name: '文件管理' })).toBeVisible();

  for (const hidden of ['仪表盘', '管理员', '会员管理', '系统设置']) {
    await expect(nav.getByText(hidden, { exact: true })).toHaveCount(0);
  }

  await nav.getByRole('link', { name: '角色权限' }).click();
  await expect(page).toHaveURL(/#\/system\/role$/);
});
