import { expect, test } from './fixtures';
import { signInAdmin } from './files-support';

test('at 375 px the admins list keeps each name on one line beside its tags', async ({
  page,
  atrium,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signInAdmin(page, atrium, '/system/admin');
  const name = page.locator('.ant-table-row').first().locator('.ant-typography strong');
  await expect(name).toHaveText('admin');
  const box = await name.boundingBox();
  // One line of text: "admin" broke letter by letter in a squeezed column.
  expect(box?.height ?? 0).toBeLessThan(30);
  expect(box?.width ?? 0).toBeGreaterThan(30);
  await page.screenshot({ animations: 'disabled', path: '/work/screens/admins-375.png' });
});
