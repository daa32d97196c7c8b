import { writeFileSync } from 'node:fs';
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
import { signInMember } from './seed';
import { SHOTS, snap } from './snap';
import { expectBothLanguages, say } from './words';

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
    admin,
    { name: `Docs ${runTag}`, baseUrl: fake.url, apiKey: 'sk-e2e-key-000000000000' },
    { name: 'docs-model', title: 'Reader' },
  );
  const room = await call(admin, 'aigc/chat_room/save', {
    id: 0,
    title: `Library desk ${runTag}`,
    modelId: model.id,
    sort: 9,
  });
  await call(admin, 'aigc/usage/quota_save', {
    messagesPerDay: 0,
    tokensPerDay: 0,
    messagesPerMinute: 0,
  });
  const member = { username: `reader_${runTag}`, password: 'docs-Member-pass-42' };
  await call(admin, 'members/create', member);
  return { roomId: room.id, member: await signInMember(atrium, member, page.context()) };
}

const card = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });

test('a member attaches documents from the picker, sees them read, and opens a cited passage', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  const { roomId, member } = await seed(page, atrium);
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
  const listed = await call(member, 'aigc/conversation/list', { roomId });
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
  await snap(page, 'zh-1280');
  await chip.click();
  const dialog = page.getByRole('dialog', { name: '引用 [1]' });
  await expect(dialog).toContainText('Zebras cross the river every spring.');
  await expect(dialog).toContainText(`${manualName} · 第 2 页`);
  await expect(dialog.getByRole('link', { name: '打开文件' })).toHaveAttribute('href', /\.pdf$/);
  await snap(page, 'passage-zh-1280');
  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName('关闭') })
    .click();

  await page.setViewportSize({ width: 375, height: 780 });
  await expect(chip).toBeVisible();
  await snap(page, 'zh-375');
  await chip.click();
  await expect(page.getByRole('dialog', { name: '引用 [1]' })).toBeVisible();
  await snap(page, 'passage-zh-375');
  await page
    .getByRole('dialog', { name: '引用 [1]' })
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName('关闭') })
    .click();

  // Removing a document takes it off the conversation.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page
    .getByRole('button', { name: say('zh-CN', 'chatDocs.remove', { name: brokenName }) })
    .click();
  await expect(bar.locator('[data-status="failed"]')).toHaveCount(0);
  await snap(page, 'zh-1280-removed');

  // The English words are checked by their keys; with SCREENSHOTS=1 the page is read in English
  // and photographed too.
  expectBothLanguages([
    'chatDocs.donePages',
    'chatDocs.page',
    'chatDocs.passageTitle',
    'chatDocs.remove',
  ]);
  await expect(bar.locator('[data-status="done"]')).toContainText(
    say('zh-CN', 'chatDocs.donePages', { pages: 3 }),
  );
  if (!SHOTS) return;
  await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await page.reload();
  await expect(bar.locator('[data-status="done"]')).toContainText(
    say('en', 'chatDocs.donePages', { pages: 3 }),
  );
  await snap(page, 'en-1280');
  await page
    .locator('[data-role="assistant"]')
    .last()
    .getByRole('button', { name: /\[1\]/ })
    .click();
  await expect(
    page.getByRole('dialog', { name: say('en', 'chatDocs.passageTitle', { n: 1 }) }),
  ).toBeVisible();
  await snap(page, 'passage-en-1280');
  await page.evaluate(() => localStorage.removeItem('atrium.lang'));
});
