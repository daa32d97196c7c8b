import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { expect, test } from './fixtures';
import { signInAdmin } from './files-support';
import { adminAuth, addModel, call } from './api-call';

const SCREENS = '/work/screens';
// The worker's server is shared with other spec files: names unique to this run.
const runTag = Date.now().toString(36);
const roomTitle = `Budget room ${runTag}`;
const MEMBER = { username: `budgeter_${runTag}`, password: 'budget-Member-pass-42' };
const noBudget = { tokensPerDay: 0, tokensPerMonth: 0, costPerDay: 0, costPerMonth: 0 };

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['budget-model'] });
  // Every answer costs 150 tokens: 50 of prompt, 100 of answer.
  fake.setDefault({
    text: 'A short answer that fits.',
    delayMs: 20,
    usage: { prompt_tokens: 50, completion_tokens: 100 },
  });
});

test.afterAll(async () => {
  await fake.close();
});

const shoot = (page: Page, name: string) =>
  page.screenshot({ animations: 'disabled', path: `${SCREENS}/${name}.png` });

test("admins set budgets; a member sees what is left and is refused, in the member's language, once the room's budget is spent", async ({
  page,
  atrium,
}) => {
  test.setTimeout(240_000);
  mkdirSync(SCREENS, { recursive: true });
  const admin = await adminAuth(atrium);
  const model = await addModel(
    atrium.url,
    admin,
    { name: `Budget AI ${runTag}`, baseUrl: fake.url, apiKey: 'sk-e2e-budget-00000000' },
    { name: 'budget-model', title: `Budget model ${runTag}` },
  );
  const room = await call<{ id: number }>(
    atrium.url,
    'admin/api/aigc/chat_room/save',
    { id: 0, title: roomTitle, modelId: model.id, sort: 99 },
    admin,
  );

  try {
    // The model's prices, in its dialog.
    await signInAdmin(page, atrium, '/aigc/model');
    const row = page.getByRole('row').filter({ hasText: `Budget model ${runTag}` });
    await row.getByRole('button', { name: '编辑' }).click();
    const modelDialog = page.getByRole('dialog', { name: '编辑模型' });
    await modelDialog.getByLabel('输入价格（每百万 tokens）').fill('2');
    await modelDialog.getByLabel('输出价格（每百万 tokens）').fill('8');
    await shoot(page, 'budget-model-prices-1280-zh');
    await modelDialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(modelDialog).toBeHidden();
    const models = await call<{ records: { models: { id: number; promptPrice: number }[] }[] }>(
      atrium.url,
      'admin/api/aigc/provider/list',
      {},
      admin,
    ).then((list) => list.records.flatMap((p) => p.models));
    expect(models.find((m) => m.id === model.id)).toMatchObject({
      promptPrice: 2,
      completionPrice: 8,
    });

    // The room's own budget: 600 tokens a day, shared by everyone in it.
    await page.getByRole('menuitem', { name: '聊天室' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: roomTitle })
      .getByRole('button', { name: '编辑' })
      .click();
    const editor = page.getByRole('dialog', { name: '编辑聊天室' });
    const budget = editor.getByText('聊天室预算', { exact: true });
    await budget.scrollIntoViewIfNeeded();
    await editor.getByLabel('每日 tokens').fill('600');
    await shoot(page, 'budget-room-editor-1280-zh');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await expect(editor).toBeHidden();

    // Each member's budget, on the usage page; saved, then put back to none for other specs.
    await page.getByRole('menuitem', { name: '用量统计' }).click();
    const quota = page.locator('form').filter({ hasText: '每位会员的预算' });
    await quota.getByLabel('每月 tokens').fill('1000000');
    await quota.getByLabel('每日费用').fill('5');
    await quota.getByRole('button', { name: '保存配额' }).click();
    await expect(page.getByText('保存成功').last()).toBeVisible();
    await page.reload();
    await expect(quota.getByLabel('每月 tokens')).toHaveValue('1000000');
    await quota.scrollIntoViewIfNeeded();
    await shoot(page, 'budget-quota-1280-zh');
    await page.setViewportSize({ width: 375, height: 800 });
    await quota.scrollIntoViewIfNeeded();
    await shoot(page, 'budget-quota-375-zh');
    await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
    await page.reload();
    await expect(page.getByText("Each member's budget")).toBeVisible();
    await page.locator('form').filter({ hasText: "Each member's budget" }).scrollIntoViewIfNeeded();
    await shoot(page, 'budget-quota-375-en');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, 'budget-quota-1280-en');
    await page.evaluate(() => localStorage.removeItem('atrium.lang'));
    await call(
      atrium.url,
      'admin/api/aigc/usage/quota_save',
      { messagesPerDay: 0, messagesPerMinute: 0, ...noBudget },
      admin,
    );

    // The member: what is left shows under the message box and shrinks after each answer.
    await call(atrium.url, 'admin/api/members/create', MEMBER, admin);
    const { token } = await call<{ token: string }>(atrium.url, 'api/auth/login', MEMBER);
    await page.context().addCookies([{ name: 'api-token', value: token, url: atrium.url }]);
    await page.goto(`${atrium.url}#/${room.id}`);
    const left = page.getByTestId('budget-left');
    await expect(left).toHaveText('本聊天室今日还可用 600 tokens');
    const box = page.getByLabel('输入消息');
    for (const [question, after] of [
      ['First question', '450'],
      ['Second question', '300'],
    ] as const) {
      await box.fill(question);
      await box.press('Enter');
      await expect(page.locator('[data-role="assistant"]').last()).toHaveAttribute(
        'data-status',
        'done',
      );
      await expect(left).toHaveText(`本聊天室今日还可用 ${after} tokens`);
    }
    await left.hover();
    await expect(page.getByTestId('budget-details')).toContainText('已用 300');
    await shoot(page, 'budget-member-1280-zh');

    // A third fits; a fourth, whose prompt (the whole conversation) and a useful answer need more
    // than the 150 left, is refused with what is left.
    await box.fill('Third question');
    await box.press('Enter');
    await expect(left).toHaveText('本聊天室今日还可用 150 tokens');
    await box.fill('One too many');
    await box.press('Enter');
    await expect(
      page.getByText(
        '本聊天室每日的 600 tokens 额度只剩 150 tokens，不够这条消息使用，UTC 0 点重置。',
      ),
    ).toBeVisible();
    await page.setViewportSize({ width: 375, height: 800 });
    await shoot(page, 'budget-member-375-zh');
    await page.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
    await page.reload();
    await expect(left).toHaveText('This room: 150 tokens left today');
    const englishBox = page.getByLabel('Type a message');
    await englishBox.fill('One too many');
    await englishBox.press('Enter');
    await expect(
      page.getByText(
        "This room's daily limit of 600 tokens has 150 tokens left, too little for this message. The limit resets at 00:00 UTC.",
      ),
    ).toBeVisible();
    await shoot(page, 'budget-member-375-en');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, 'budget-member-1280-en');
    await page.evaluate(() => localStorage.removeItem('atrium.lang'));
  } finally {
    await call(
      atrium.url,
      'admin/api/aigc/chat_room/save',
      { id: room.id, title: roomTitle, modelId: model.id, enabled: false },
      admin,
    );
  }
});
