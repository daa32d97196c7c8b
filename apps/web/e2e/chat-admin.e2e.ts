import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { expect, test } from './fixtures';
import { snap } from './snap';
import { signInAdmin } from './files-support';
import { adminIn, call, signedIn } from './api-call';

const KEY = 'sk-admin-e2e-secret-key-123456';

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: KEY, models: ['fake-chat', 'fake-vision'] });
});

test.afterAll(async () => {
  await fake.close();
});

test('an admin sets up a provider, a model and a room; members see the room; usage is charted', async ({
  page,
  browser,
  atrium,
}) => {
  test.setTimeout(120_000);
  await signInAdmin(page, atrium, '/aigc/model');

  // Provider: the connection test proves the key works; the key is never shown again.
  await page.getByRole('button', { name: '新建服务商' }).click();
  const dialog = page.getByRole('dialog', { name: '新建服务商' });
  await dialog.getByLabel('名称').fill('Fake AI');
  await dialog.getByLabel('接口地址').fill(fake.url);
  await dialog.getByLabel('API Key').fill(KEY);
  await dialog.getByRole('button', { name: '测试连接' }).click();
  await expect(dialog.getByText(/连接成功.*可用模型 2 个/)).toBeVisible();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/已设置 ••••3456/)).toBeVisible();
  await expect(page.locator('body')).not.toContainText(KEY);

  // This provider's button: the worker's server may hold other specs' providers already.
  await page
    .locator('.ant-card')
    .filter({ hasText: /已设置 ••••3456/ })
    .getByRole('button', { name: '添加模型' })
    .click();
  const modelDialog = page.getByRole('dialog', { name: '添加模型' });
  // The provider's own list is offered: typing narrows it, choosing fills the display name.
  await expect(modelDialog.getByTestId('model-list-hint')).toHaveText(
    '可从服务商列出的 2 个模型中选择，也可直接填写。',
  );
  await modelDialog.getByLabel('模型 ID').fill('vis');
  const offered = page.locator('.ant-select-item-option');
  await expect(offered).toHaveText(['fake-vision']);
  await modelDialog.getByLabel('模型 ID').fill('fake');
  await expect(offered).toHaveText(['fake-chat', 'fake-vision']);
  await snap(page, 'chat-admin-model-list-1280');
  await offered.filter({ hasText: 'fake-chat' }).click();
  await expect(modelDialog.getByLabel('显示名称')).toHaveValue('fake-chat');
  await modelDialog.getByLabel('显示名称').fill('Fake Chat');
  await modelDialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByRole('cell', { name: 'Fake Chat' })).toBeVisible();
  await snap(page, 'chat-admin-models-1280', { fullPage: true });

  // Room, through the menu.
  await page.getByRole('menuitem', { name: '聊天室' }).click();
  await expect(page).toHaveURL(/#\/aigc\/chat_room$/);
  await page.getByRole('button', { name: '新建聊天室' }).click();
  const editor = page.getByRole('dialog', { name: '新建聊天室' });
  await editor.getByLabel('标题').fill('Helpdesk');
  await editor.getByLabel('模型').click();
  await page.locator('.ant-select-item-option', { hasText: 'Fake Chat' }).click();
  // The rich-text and code editors are contenteditable areas without labels of their own.
  await editor.locator('.atrium-rte [contenteditable="true"]').fill('We help.');
  const params = editor.locator('.atrium-code-field [contenteditable="true"]');
  await editor.getByLabel('系统提示词').fill('Be brief.');
  await params.fill('{ oops');
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  await expect(editor.getByText('不是合法的 JSON 对象')).toBeVisible();
  await params.fill('{"temperature": 0.2}');
  await editor.getByRole('button', { name: '添加' }).click();
  await editor.getByLabel('名称 1').fill('Reset password');
  await editor.getByLabel('内容 1').fill('How do I reset my password?');
  await snap(page, 'chat-admin-room-editor-1280');
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('cell', { name: 'Helpdesk', exact: true })).toBeVisible();
  await snap(page, 'chat-admin-rooms-1280', { fullPage: true });

  // A visitor's home lists it, without the script.
  const visitor = await browser.newPage();
  await visitor.goto(atrium.url);
  const card = visitor.getByRole('link', { name: 'Helpdesk' });
  await expect(card).toContainText('We help.');
  await expect(card).toContainText('Fake Chat');
  await visitor.close();

  // Usage: one answer, then the chart and the tables.
  const usageMember = { username: 'usage_member', password: 'usage-Member-42' };
  await call(adminIn(page), 'members/create', usageMember);
  const member = await signedIn(atrium.url, 'member', usageMember);
  const rooms = await call({ area: 'member', base: atrium.url }, 'aigc/chat_room/all', {});
  const helpdesk = rooms.records.find((r) => r.title === 'Helpdesk');
  if (!helpdesk) throw new Error('no Helpdesk room');
  const conversation = await call(member, 'aigc/conversation/create', { roomId: helpdesk.id });
  await call(member, 'aigc/chat/send', { conversationId: conversation.id, content: 'Hello there' });
  await expect.poll(() => fake.completions().at(-1)?.finished).toBe(true);

  await page.getByRole('menuitem', { name: '用量统计' }).click();
  await expect(page).toHaveURL(/#\/aigc\/usage$/);
  await expect(page.getByRole('cell', { name: 'usage_member' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Helpdesk' })).toBeVisible();
  await expect(
    page.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  await page.getByLabel('每日提问次数').fill('50');
  const saved = page.waitForResponse((r) => r.url().endsWith('/admin/api/aigc/usage/quota_save'));
  await page.getByRole('button', { name: '保存配额' }).click();
  expect(((await (await saved).json()) as { code: number }).code).toBe(0);
  // Earlier saves in this test may still show their own "Save Success" toast (保存成功).
  await expect(page.getByText('保存成功').last()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('每日提问次数')).toHaveValue('50');
  await snap(page, 'chat-admin-usage-1280', { fullPage: true });
});
