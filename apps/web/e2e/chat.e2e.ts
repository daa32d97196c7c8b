import { createHash } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { expect, test, type AtriumServer } from './fixtures';
import { solidPng } from './files-support';
import { adminAuth, call, callLibrary, sendChunk, type SignedIn } from './api-call';
import { seedRoom, signInMember } from './seed';
import { SHOTS, snap } from './snap';
import { expectBothLanguages, say, type Lang } from './words';
const MEMBER = { username: 'chatter', password: 'chat-Member-pass-42' };

const story = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

/** Uploads a PNG into the admin library (init, one chunk, save) and answers its path. */
async function uploadCover(admin: SignedIn<'admin'>, rgb: [number, number, number]) {
  const png = solidPng(320, 180, rgb);
  const md5 = createHash('md5').update(png).digest('hex');
  const name = `cover-${rgb.join('-')}.png`;
  await callLibrary(admin, 'image', {
    action: 'init',
    name,
    type: 'image/png',
    size: png.length,
    md5,
  });
  const chunk = await sendChunk(
    admin,
    'image',
    { id: 'WU_FILE_0', name, type: 'image/png', size: String(png.length), md5 },
    png,
  );
  const path = chunk.path ?? '';
  await callLibrary(admin, 'image', {
    action: 'save',
    path,
    name,
    size: png.length,
    categoryId: 0,
  });
  return path;
}

let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['story-model'] });
  fake.setDefault({ text: story, delayMs: 60 });
});

test.afterAll(async () => {
  await fake.close();
});

/** Provider, model, rooms and a member through the admin API; the member's token as a cookie. */
async function seed(page: Page, atrium: AtriumServer) {
  const admin = await adminAuth(atrium);
  const [blue, orange] = await Promise.all([
    uploadCover(admin, [64, 120, 230]),
    uploadCover(admin, [240, 140, 60]),
  ]);
  const story = await seedRoom(atrium, {
    providerUrl: fake.url,
    model: { name: 'story-model', title: 'Story Teller', vision: true },
    room: {
      title: 'Story studio',
      cover: blue,
      description: '<p>Short stories on demand, <b>streamed</b> as they are written.</p>',
      systemPrompt: 'You tell stories.',
      params: { temperature: 0.8 },
      prompts: [{ name: 'A fable', value: 'Tell me a fable' }],
      sort: 0,
    },
    members: [MEMBER],
  });
  await call(admin, 'aigc/chat_room/save', {
    id: 0,
    title: 'Code helper',
    cover: orange,
    description: '<p>Answers with highlighted code.</p>',
    modelId: story.model.id,
    sort: 1,
  });
  await call(admin, 'aigc/chat_room/save', {
    id: 0,
    title: 'Coming soon',
    description: '<p>No model yet.</p>',
    sort: 2,
  });
  await signInMember(atrium, MEMBER, page.context());
  return { roomId: story.roomId, member: story.member };
}

const answers = (page: Page) => page.locator('[data-role="assistant"]');

test('a member chats in a room: tokens stream, a reload continues the answer, stop, regenerate, a long history', async ({
  page,
  atrium,
}) => {
  test.setTimeout(120_000);
  const { roomId, member } = await seed(page, atrium);

  await page.goto(atrium.url);
  await expect(page.getByRole('link', { name: 'Story studio' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Coming soon' })).toContainText('未配置模型');
  await snap(page, 'home-1280', { fullPage: true });

  await page.getByLabel('搜索聊天室').fill('code');
  await expect(page.getByRole('link', { name: 'Story studio' })).toBeHidden();
  await expect(page.locator('mark.atrium-highlight').first()).toHaveText(/code/i);
  await page.getByLabel('搜索聊天室').fill('');

  await page.getByRole('link', { name: 'Story studio' }).click();
  await expect(page).toHaveURL(new RegExp(`#/${roomId}`));
  await expect(page.getByRole('button', { name: 'A fable' })).toBeVisible();
  // The room fits the window below the header: the page itself never scrolls.
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  await expect.poll(overflow).toBeLessThanOrEqual(0);

  // Send: tokens arrive one after another.
  const box = page.getByLabel('输入消息');
  await box.fill('Tell me a long story');
  await box.press('Enter');
  const answer = answers(page).last();
  await expect(answer).toHaveAttribute('data-status', 'streaming');
  await expect(answer).toContainText('word3');
  const early = (await answer.innerText()).length;
  await expect(answer).toContainText('word12');
  expect((await answer.innerText()).length).toBeGreaterThan(early);
  await expect(page).toHaveURL(/[?&]c=\d+/);

  // Reload in the middle: the answer continues from where the page was and completes.
  await page.reload();
  const resumed = answers(page).last();
  await expect(resumed).toContainText('word20');
  await expect(resumed).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(resumed).toContainText(story);
  await snap(page, 'room-1280');

  // Stop: the provider request is aborted and the answer keeps what it had.
  const before = fake.completions().length;
  await box.fill('And another one');
  await box.press('Enter');
  await expect(answers(page).last()).toContainText('word5');
  await page
    .getByRole('button', { name: /停\s*止/ })
    .last()
    .click();
  await expect(answers(page).last()).toHaveAttribute('data-status', 'stopped');
  await expect.poll(() => fake.completions()[before]?.aborted).toBe(true);
  const stoppedText = await answers(page).last().innerText();
  expect(stoppedText).not.toContain('word59');

  // Regenerate the latest answer: a fresh one streams in its place, the stopped one is kept as
  // its first version (the walk through versions is the next test's).
  fake.script({ text: 'A brand new ending, with `code` and **bold** words.', delayMs: 40 });
  await page.getByRole('button', { name: '重新生成' }).click();
  const regenerated = answers(page).last();
  await expect(regenerated).toHaveAttribute('data-status', 'done');
  await expect(page.getByLabel('回答的各个版本')).toContainText('2 / 2');
  await expect(regenerated).toContainText('A brand new ending');
  await expect(regenerated.locator('strong')).toHaveText('bold');
  await expect(answers(page)).toHaveCount(2);

  // "New chat" opens an empty draft: clicked three times it saves nothing; the conversation is
  // made by its first message and titled from it.
  const history = page.getByRole('navigation', { name: '对话', exact: true });
  const listed = await history.getByRole('button').count();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: '新对话' }).click();
  await expect(page).toHaveURL(/[?&]c=new/);
  await expect(history.getByRole('button')).toHaveCount(listed);
  await box.fill('Short question');
  await box.press('Enter');
  await expect(page).toHaveURL(/[?&]c=\d+/);
  await expect(history.getByRole('button', { name: /Short question/ }).first()).toBeVisible();
  await expect(answers(page).last()).toHaveAttribute('data-status', 'done');

  // Search the room's conversations: a word of an answer finds its conversation, marked; choosing
  // it opens it.
  const searchBox = page.getByLabel('搜索对话');
  await searchBox.fill('brand NEW');
  const hit = history.locator('.atrium-conversation-hit');
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText('Tell me a long story');
  await expect(hit.locator('mark.atrium-highlight')).toHaveText(['brand new']);
  await snap(page, 'search-1280');
  await hit.click();
  await expect(answers(page).last()).toContainText('A brand new ending');
  // Edit and branch: the first question asked again starts a new branch; the old one stays.
  const firstQuestion = page.locator('[data-role="user"]').first();
  await expect(firstQuestion).toContainText('Tell me a long story');
  await firstQuestion.getByRole('button', { name: '编辑' }).click();
  const editBox = page.getByLabel('编辑你的问题');
  await editBox.fill('Tell me a short story');
  fake.script({ text: 'Once upon a time, briefly.', delayMs: 20 });
  await page.getByRole('button', { name: '保存并发送' }).click();
  await expect(answers(page).last()).toContainText('Once upon a time, briefly.');
  await expect(answers(page).last()).toHaveAttribute('data-status', 'done');
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);
  const versions = page.getByLabel('问题的各个版本');
  await expect(versions).toContainText('2 / 2');
  await snap(page, 'branch-1280');
  await versions.getByRole('button', { name: '上一版本' }).click();
  await expect(versions).toContainText('1 / 2');
  await expect(page.locator('[data-role="user"]')).toHaveCount(2);
  await expect(answers(page).last()).toContainText('A brand new ending');
  await page.reload();
  await expect(page.getByLabel('问题的各个版本')).toContainText('1 / 2');
  await page.getByLabel('问题的各个版本').getByRole('button', { name: '下一版本' }).click();
  await expect(answers(page).last()).toContainText('Once upon a time, briefly.');

  await searchBox.fill('no such words anywhere');
  await expect(history.getByText('没有对话或消息包含“no such words anywhere”')).toBeVisible();
  await searchBox.fill('');
  await expect(history.getByRole('button', { name: /Short question/ }).first()).toBeVisible();

  // 375 px: the room and the home still work.
  await page.setViewportSize({ width: 375, height: 780 });
  await expect(page.getByLabel('输入消息')).toBeVisible();
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  await snap(page, 'room-375');
  // Focused, the composer shows one ring (its box's), not a second one around the text area.
  await page.getByLabel('输入消息').focus();
  await expect(page.getByLabel('输入消息')).toHaveCSS('outline-style', 'none');
  await expect(page.locator('.atrium-composer-box')).toHaveCSS(
    'box-shadow',
    /rgba?\(.+\) 0px 0px 0px 2px/,
  );
  await snap(page, 'composer-375');
  await page.goto(atrium.url);
  await expect(page.getByRole('link', { name: 'Story studio' })).toBeVisible();
  await snap(page, 'home-375', { fullPage: true });

  // A long history opens at its end and loads older pages while scrolling up, keeping the
  // message being read in place.
  await page.setViewportSize({ width: 1280, height: 800 });
  fake.setDefault((body) => ({ text: `Answer to ${String(body.messages?.at(-1)?.content)}` }));
  const long = await call(member, 'aigc/conversation/create', { roomId });
  for (let i = 1; i <= 35; i++) {
    const sent = await call(member, 'aigc/chat/send', {
      conversationId: long.id,
      content: `Question ${i}`,
    });
    await expect.poll(() => fake.completions().at(-1)?.finished).toBe(true);
    await expect
      .poll(async () => {
        const page1 = await call(member, 'aigc/message/list', {
          conversationId: long.id,
          limit: 1,
        });
        return page1.records[0]?.id === sent.assistantMessage.id && page1.records[0]?.status;
      })
      .toBe('done');
  }
  await page.goto(`${atrium.url}#/${roomId}?c=${long.id}`);
  const log = page.getByTestId('chat-messages');
  await expect(log).toContainText('Answer to Question 35');
  await expect(page.locator('[data-role="user"]')).toHaveCount(15);
  const reading = page.locator('[data-role="user"]').first();
  await expect(reading).toHaveText('Question 21');
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.locator('[data-role="user"]')).toHaveCount(30);
  await expect(page.locator('[data-role="user"]', { hasText: /^Question 21$/ })).toBeInViewport();
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.locator('[data-role="user"]')).toHaveCount(35);
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(log).toContainText('Answer to Question 1');

  // Signing out keeps the home page whole: the rooms load again without a full reload.
  await page.goto(atrium.url);
  const signOut = page.getByRole('menuitem', { name: '退出登录' });
  // The menu loads on first use; a click before it arrives opens it once it has.
  await page.getByRole('banner').getByRole('button', { name: 'chatter' }).click();
  await signOut.click();
  await expect(page.getByRole('banner').getByRole('button', { name: /登\s*录/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Story studio' })).toContainText('Short stories');
  await expect(page.getByText('还没有开放的聊天室')).toHaveCount(0);
});

/** Another member with a conversation in a room of their own, whatever ran before in this worker. */
async function seedVersions(atrium: AtriumServer) {
  return seedRoom(atrium, {
    providerUrl: fake.url,
    model: { name: 'story-model', title: 'Versions model' },
    room: { title: 'Versions room', sort: 5 },
    members: [{ username: 'versioner', password: 'versions-Member-pass-42' }],
  });
}

/** The version switch's names, by their catalogue keys. */
const versionLabels = (lang: Lang) => ({
  group: say(lang, 'chat.answerVersions'),
  previous: say(lang, 'chat.previousVersion'),
  next: say(lang, 'chat.nextVersion'),
  again: say(lang, 'chat.regenerate'),
});

/** A signed-in browser at `width` with the page's language chosen. */
async function contextIn(
  browser: Browser,
  url: string,
  token: string,
  lang: 'zh-CN' | 'en',
  width: number,
) {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 812 : 800 },
  });
  await context.addInitScript((l) => localStorage.setItem('atrium.lang', l), lang);
  await context.addCookies([{ name: 'api-token', value: token, url }]);
  return context;
}

test('a regenerated answer keeps the earlier one: ‹ 1 / 2 › switches between them, phone-wide', async ({
  browser,
  atrium,
}) => {
  const { roomId, member } = await seedVersions(atrium);
  // In Chinese at 375 px; the English names are checked by their keys. With SCREENSHOTS=1 the
  // switch is walked and photographed in both languages at both widths.
  expectBothLanguages(['chat.answerVersions', 'chat.previousVersion', 'chat.nextVersion']);
  const views = SHOTS
    ? (['zh-CN', 'en'] as const).flatMap((lang) => [1280, 375].map((width) => ({ lang, width })))
    : [{ lang: 'zh-CN' as const, width: 375 }];
  for (const { lang, width } of views) {
    const l = versionLabels(lang);
    const { id } = await call(member, 'aigc/conversation/create', { roomId });
    fake.script({ text: `The first answer, ${lang} at ${width}.` });
    await call(member, 'aigc/chat/send', {
      conversationId: id,
      content: 'Tell me something',
      images: [],
    });
    await expect.poll(() => fake.completions().at(-1)?.finished).toBe(true);
    const context = await contextIn(browser, atrium.url, member.token, lang, width);
    const page = await context.newPage();
    await page.goto(`${atrium.url}#/${roomId}?c=${id}`);
    const answer = answers(page).last();
    await expect(answer).toContainText('The first answer');
    await expect(answer).toHaveAttribute('data-status', 'done');
    await expect(page.getByRole('group', { name: l.group })).toHaveCount(0);

    // Written again: the new answer streams in the same place and says it is version 2 of 2.
    fake.script({ text: `A second answer, ${lang} at ${width}.`, delayMs: 20 });
    await answer.getByRole('button', { name: l.again }).click();
    const versions = page.getByRole('group', { name: l.group });
    await expect(versions).toContainText('2 / 2');
    await expect(answers(page)).toHaveCount(1);
    await expect(answers(page).last()).toHaveAttribute('data-status', 'done');
    await expect(answers(page).last()).toContainText('A second answer');
    await expect(versions.getByRole('button', { name: l.previous })).toBeInViewport();
    await snap(page, `answer-versions-${lang}-${width}`);

    // Back to the first: its text, "1 / 2" focused (read out); on with the keyboard.
    await versions.getByRole('button', { name: l.previous }).click();
    await expect(versions).toContainText('1 / 2');
    await expect(answers(page).last()).toContainText('The first answer');
    await expect(answers(page).last()).not.toContainText('A second answer');
    await expect(versions.getByText('1 / 2')).toBeFocused();
    await snap(page, `answer-version-1-${lang}-${width}`);
    await page.keyboard.press('Tab');
    await expect(versions.getByRole('button', { name: l.next })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(versions).toContainText('2 / 2');
    await expect(answers(page).last()).toContainText('A second answer');
    await expect(versions.getByText('2 / 2')).toBeFocused();
    await snap(page, `answer-keyboard-${lang}-${width}`);
    await context.close();
  }
});
