import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { makePdf } from '../../server/src/testing/doc-fixtures.mjs';
import {
  startFakeOpenAi,
  type ChatBody,
  type FakeOpenAi,
} from '../../server/src/testing/fake-openai';
import { expect, test, type AtriumServer } from './fixtures';
import { buttonName } from './files-support';
import { adminAuth, addModel, call } from './api-call';

const SCREENS = '/work/screens';
// The worker's server is shared with other spec files: names unique to this run.
const runTag = Date.now().toString(36);
const manualName = `garden-${runTag}.pdf`;
const brokenName = `broken-${runTag}.pdf`;

let fake: FakeOpenAi;

const systemText = (body: ChatBody) =>
  (body.messages ?? [])
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['docs-model'] });
  // Cites the first passage when it is given any, as a model told to cite does.
  fake.setDefault((body) => ({
    text: systemText(body).includes('[1] ')
      ? 'Zebras cross the river every spring [1].'
      : 'I have no documents to go on.',
    delayMs: 20,
  }));
});

test.afterAll(async () => {
  await fake.close();
});

async function seed(page: Page, atrium: AtriumServer) {
  const admin = await adminAuth(atrium);
  const model = await addModel(
    atrium.url,
    admin,
    { name: `Docs ${runTag}`, baseUrl: fake.url, apiKey: 'sk-e2e-key-000000000000' },
    { name: 'docs-model', title: 'Reader' },
  );
  const room = await call<{ id: number }>(
    atrium.url,
    'admin/api/aigc/chat_room/save',
    { id: 0, title: `Library desk ${runTag}`, modelId: model.id, sort: 9 },
    admin,
  );
  await call(
    atrium.url,
    'admin/api/aigc/usage/quota_save',
    { messagesPerDay: 0, tokensPerDay: 0, messagesPerMinute: 0 },
    admin,
  );
  const member = { username: `reader_${runTag}`, password: 'docs-Member-pass-42' };
  await call(atrium.url, 'admin/api/members/create', member, admin);
  const { token } = await call<{ token: string }>(atrium.url, 'api/auth/login', member);
  await page.context().addCookies([{ name: 'api-token', value: token, url: atrium.url }]);
  return { roomId: room.id, memberToken: token };
}

const card = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });

test('a member attaches documents from the picker, sees them read, and opens a cited passage', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  mkdirSync(SCREENS, { recursive: true });
  const { roomId, memberToken } = await seed(page, atrium);
  const manual = testInfo.outputPath(manualName);
  const broken = testInfo.outputPath(brokenName);
  writeFileSync(
    manual,
    makePdf([
      'A guide to the valley and its animals.',
      ['Chapter two: the zebra migration.', 'Zebras cross the river every spring.'],
      'Index of places.',
    ]),
  );
  writeFileSync(broken, Buffer.from('%PDF-1.4\nthis is not really a PDF at all\n%%EOF\n'));

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${atrium.url}#/${roomId}`);

  // "参考文档" opens the picker on the member's own files: upload there, choose both, confirm.
  await page.getByRole('button', { name: /参考文档/ }).click();
  const picker = page.locator('.ant-modal').filter({ has: page.locator('.atrium-upload') });
  // The library only: no "自定义链接" tab (a typed address can never be a document of the member's).
  await expect(picker.locator('.atrium-upload')).toBeVisible();
  await expect(picker.getByRole('tab')).toHaveCount(0);
  await expect(picker.getByText('自定义链接')).toHaveCount(0);
  await picker.locator('.atrium-upload input[type="file"]').setInputFiles([manual, broken]);
  await expect(card(page, manualName)).toBeVisible();
  await expect(card(page, brokenName)).toBeVisible();
  await card(page, manualName).click();
  await card(page, brokenName).click();
  await picker.getByRole('button', { name: buttonName('确定') }).click();
  await expect(page).toHaveURL(/[?&]c=\d+/);
  // The attach created the draft's conversation, which is open and listed once.
  const openId = new URL(page.url().replace('#/', '')).searchParams.get('c');
  const listed = await call<{ records: { id: number }[] }>(
    atrium.url,
    'api/aigc/conversation/list',
    { roomId },
    { header: 'api-token', token: memberToken },
  );
  expect(listed.records.map((c) => String(c.id))).toEqual([openId]);

  // Each document's state: the PDF is read (3 pages), the broken one says it cannot be read.
  const bar = page.locator('.atrium-docs-bar');
  await expect(bar.locator('[data-status="done"]')).toContainText('已就绪 · 3 页', {
    timeout: 20_000,
  });
  const failed = bar.locator('[data-status="failed"]');
  await expect(failed).toContainText('无法读取');
  await failed.hover();
  await expect(page.getByRole('tooltip')).toContainText('无法读取这个文件：不是有效的 PDF 文件');

  // The answer cites the passage; its chip opens the passage with its file and page.
  const box = page.getByLabel('输入消息');
  await box.fill('When do the zebras migrate?');
  await box.press('Enter');
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'done');
  const chip = answer.getByRole('button', { name: new RegExp(`\\[1\\] ${manualName} · 第 2 页`) });
  await expect(chip).toBeVisible();
  await page.screenshot({ animations: 'disabled', path: `${SCREENS}/chat-docs-zh-1280.png` });
  await chip.click();
  const dialog = page.getByRole('dialog', { name: '引用 [1]' });
  await expect(dialog).toContainText('Zebras cross the river every spring.');
  await expect(dialog).toContainText(`${manualName} · 第 2 页`);
  await expect(dialog.getByRole('link', { name: '打开文件' })).toHaveAttribute('href', /\.pdf$/);
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENS}/chat-docs-passage-zh-1280.png`,
  });
  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName('关闭') })
    .click();

  await page.setViewportSize({ width: 375, height: 780 });
  await expect(chip).toBeVisible();
  await page.screenshot({ animations: 'disabled', path: `${SCREENS}/chat-docs-zh-375.png` });
  await chip.click();
  await expect(page.getByRole('dialog', { name: '引用 [1]' })).toBeVisible();
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENS}/chat-docs-passage-zh-375.png`,
  });

  // The same in English; removing a document takes it off the conversation.
  await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await page.reload();
  await expect(bar.locator('[data-status="done"]')).toContainText('Ready · 3 pages');
  await expect(
    page
      .locator('[data-role="assistant"]')
      .last()
      .getByRole('button', {
        name: new RegExp(`\\[1\\] ${manualName} · page 2`),
      }),
  ).toBeVisible();
  await page.screenshot({ animations: 'disabled', path: `${SCREENS}/chat-docs-en-375.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page
    .locator('[data-role="assistant"]')
    .last()
    .getByRole('button', { name: /\[1\]/ })
    .click();
  await expect(page.getByRole('dialog', { name: 'Source [1]' })).toContainText(
    'Zebras cross the river every spring.',
  );
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENS}/chat-docs-passage-en-1280.png`,
  });
  await page
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName('Close') })
    .click();
  await page.getByRole('button', { name: `Remove document ${brokenName}` }).click();
  await expect(bar.locator('[data-status="failed"]')).toHaveCount(0);
  await page.screenshot({ animations: 'disabled', path: `${SCREENS}/chat-docs-en-1280.png` });
  await page.evaluate(() => localStorage.removeItem('atrium.lang'));
});
