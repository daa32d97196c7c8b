import type { Browser, Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { expect, test, type AtriumServer } from './fixtures';
import { adminAuth, addModel, call } from './api-call';
import { signInMember } from './seed';
import { SHOTS, snap } from './snap';
import { expectBothLanguages, say, type Lang } from './words';

const MEMBER = { username: 'seeker', password: 'seek-Member-pass-42' };

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['search-model'] });
});

test.afterAll(async () => {
  await fake.close();
});

/**
 * Two rooms and a member with history in both: a trip plan in "Travel desk", a database
 * question in "Engineering" (with 40 more questions after it, so it is on an older page), and an
 * edited question whose first version (about walruses) is on a branch no longer shown.
 */
async function seed(atrium: AtriumServer) {
  const admin = await adminAuth(atrium);
  const model = await addModel(
    admin,
    { name: 'Fake', baseUrl: fake.url, apiKey: 'sk-e2e-key-000000000000' },
    { name: 'search-model', title: 'Searcher' },
  );
  const room = (title: string, sort: number) =>
    call(admin, 'aigc/chat_room/save', { id: 0, title, modelId: model.id, sort });
  const travel = await room('Travel desk', 0);
  const engineering = await room('Engineering', 1);
  await call(admin, 'aigc/usage/quota_save', {
    messagesPerDay: 0,
    tokensPerDay: 0,
    messagesPerMinute: 0,
  });
  await call(admin, 'members/create', MEMBER);
  const member = await signInMember(atrium, MEMBER);

  const conversation = (roomId: number) => call(member, 'aigc/conversation/create', { roomId });
  const done = async (conversationId: number, id: number) =>
    expect
      .poll(
        async () =>
          (await call(member, 'aigc/message/list', { conversationId })).records.find(
            (m) => m.id === id,
          )?.status,
      )
      .toBe('done');
  const ask = async (conversationId: number, content: string, answer: string) => {
    fake.script({ text: answer });
    const sent = await call(member, 'aigc/chat/send', { conversationId, content, images: [] });
    await done(conversationId, sent.assistantMessage.id);
    return sent;
  };

  const db = await conversation(engineering.id);
  const found = await ask(
    db.id,
    '数据库索引应该怎么设计？',
    '设计数据库索引时，先看查询条件：where 和 order by 用到的列放在前面，选择性高的列优先。',
  );
  for (let i = 1; i <= 40; i++) await ask(db.id, `Follow-up question ${i}`, `Answer ${i}`);

  const trip = await conversation(travel.id);
  await ask(
    trip.id,
    'Plan a three day trip to Kyoto',
    'Day one: Fushimi Inari at dawn, then Gion.',
  );

  const animals = await conversation(engineering.id);
  const first = await ask(animals.id, 'Write a haiku about a walrus', 'Tusks in the cold sea');
  fake.script({ text: 'Gentle drifting seal' });
  const edited = await call(member, 'aigc/chat/edit', {
    messageId: first.userMessage.id,
    content: 'Write a haiku about a seal',
  });
  await done(animals.id, edited.assistantMessage.id);
  return { travel, engineering, found, walrus: first, member };
}

async function signedInPage(
  browser: Browser,
  atrium: AtriumServer,
  lang: Lang,
  width: number,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 820 } });
  await context.addInitScript((l) => localStorage.setItem('atrium.lang', l), lang);
  await signInMember(atrium, MEMBER, context);
  return context.newPage();
}

test('a member searches all their conversations: titles and messages marked, a hit opens its room, older page and branch', async ({
  browser,
  atrium,
}) => {
  test.setTimeout(120_000);
  const { travel, engineering, found, walrus } = await seed(atrium);

  // Chinese, 1280: from the travel room, a Chinese word finds the database question in the
  // Engineering room, on a page older than the one shown first.
  const page = await signedInPage(browser, atrium, 'zh-CN', 1280);
  await page.goto(`${atrium.url}#/${travel.id}`);
  const history = page.getByRole('navigation', { name: '对话', exact: true });
  await page.getByLabel('搜索对话').fill('数据库索引');
  const hits = history.locator('[data-message-hit]');
  await expect(hits).toHaveCount(2);
  await expect(hits.first()).toContainText('Engineering');
  await expect(hits.first().locator('mark.atrium-highlight').first()).toHaveText('数据库索引');
  // The conversation's title (its first question) holds the words too.
  await expect(history.getByRole('region', { name: '对话标题' })).toContainText('数据库索引');
  await snap(page, 'zh-1280');

  await history.locator(`[data-message-hit="${found.userMessage.id}"]`).click();
  await expect(page).toHaveURL(new RegExp(`#/${engineering.id}\\?c=\\d+`));
  const target = page.locator(`[data-id="${found.userMessage.id}"]`);
  await expect(target).toBeInViewport();
  await expect(target).toHaveClass(/atrium-message-found/);
  await snap(page, 'opened-zh-1280');

  // A message on a branch no longer shown: opening it shows that branch.
  await page.getByLabel('搜索对话').fill('walrus');
  const walrusHit = history.locator(`[data-message-hit="${walrus.userMessage.id}"]`);
  await expect(walrusHit.locator('mark')).toHaveText('walrus');
  await walrusHit.click();
  await expect(page.getByText('已切换到包含这条消息的分支')).toBeVisible();
  await expect(page.locator(`[data-id="${walrus.userMessage.id}"]`)).toBeInViewport();
  await expect(page.getByLabel('问题的各个版本')).toContainText('1 / 2');

  // Special characters and words nobody wrote: a clear empty state, never an error.
  for (const words of ['"AND*', '100%', 'zzqx NOT']) {
    await page.getByLabel('搜索对话').fill(words);
    await expect(history.getByText(`没有对话或消息包含“${words}”`)).toBeVisible();
  }
  await page.context().close();

  // A phone-wide window, in Chinese: the list behind its button, "this room" and "all rooms". The
  // English words are checked by their keys; with SCREENSHOTS=1 the search is opened and
  // photographed in both languages at both widths as well.
  expectBothLanguages([
    'chat.searchConversations',
    'chat.conversations',
    'chatSearch.conversations',
    'chatSearch.thisRoom',
    'chatSearch.allRooms',
    'chatSearch.nothing',
  ]);
  const views = SHOTS
    ? (['zh-CN', 'en'] as const).flatMap((lang) => [1280, 375].map((width) => ({ lang, width })))
    : [{ lang: 'zh-CN' as const, width: 375 }];
  for (const { lang, width } of views) {
    const p = await signedInPage(browser, atrium, lang, width);
    await p.goto(`${atrium.url}#/${engineering.id}`);
    if (width === 375)
      await p.getByRole('button', { name: say(lang, 'chat.conversations'), exact: true }).click();
    await p.getByLabel(say(lang, 'chat.searchConversations')).fill('trip');
    const list = p.locator('.atrium-chat-search');
    await expect(list.locator('mark.atrium-highlight').first()).toBeVisible();
    await expect(list.getByText(say(lang, 'chatSearch.conversations'))).toBeVisible();
    await expect(list).toContainText('Travel desk');
    await snap(p, `${lang}-${width}`);
    // This room only: the trip is in another room.
    await list.getByText(say(lang, 'chatSearch.thisRoom')).click();
    await expect(
      list.getByText(say(lang, 'chatSearch.nothing', { keywords: 'trip' })),
    ).toBeVisible();
    await list.getByText(say(lang, 'chatSearch.allRooms')).click();
    await list.locator('[data-message-hit]').first().click();
    await expect(p).toHaveURL(new RegExp(`#/${travel.id}\\?c=\\d+`));
    await expect(p.locator('[data-role="user"]').first()).toContainText('Kyoto');
    await p.context().close();
  }
});
