import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { expect, test, type AtriumServer } from './fixtures';
import { call } from './api-call';
import { seedRoom, signInMember } from './seed';
import { SHOTS, snap } from './snap';
import { expectBothLanguages, say } from './words';

const OWNER = { username: 'sharer', password: 'share-Member-pass-42' };
const READER = { username: 'reader', password: 'read-Member-pass-42' };
const TITLE = '季度总结';
/** Both languages at both widths: walked only when the screens are photographed. */
const everyView = [
  ['en', 1280],
  ['en', 375],
  ['zh-CN', 1280],
  ['zh-CN', 375],
] as const;

let fake: FakeOpenAi;

// Several browser contexts per test: more than the default minute on a busy machine.
test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['share-model'] });
  fake.setDefault((body) => ({
    text: `**Summary** of ${String(body.messages?.at(-1)?.content)}:\n\n- revenue up\n- costs down`,
  }));
});

test.afterAll(async () => {
  await fake.close();
});

const seeded = new Map<string, ReturnType<typeof seedAll>>();

/** Seeds each worker's server once: the tests of this file share it. */
function seed(atrium: AtriumServer) {
  let done = seeded.get(atrium.url);
  if (!done) {
    done = seedAll(atrium);
    seeded.set(atrium.url, done);
  }
  return done;
}

/** A room, two members and the owner's conversation with one answered question, by the API. */
async function seedAll(atrium: AtriumServer) {
  const room = await seedRoom(atrium, {
    providerUrl: fake.url,
    model: { name: 'share-model', title: 'Share model' },
    room: { title: '财务助手', description: '<p>Numbers.</p>' },
    members: [OWNER, READER],
    conversation: { title: TITLE, ask: 'How did the quarter go?' },
  });
  return { roomId: room.roomId, conversationId: room.conversationId ?? 0, owner: room.member };
}

async function signedInPage(
  browser: Browser,
  atrium: AtriumServer,
  account: { username: string; password: string } | undefined,
  lang: 'en' | 'zh-CN' = 'en',
  width = 1280,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 860 } });
  // The language chosen for the context, unless the page has since picked one itself.
  await context.addInitScript((l) => {
    if (!sessionStorage.getItem('e2e-lang')) localStorage.setItem('atrium.lang', l);
  }, lang);
  if (account) await signInMember(atrium, account, context);
  return context.newPage();
}

/** Opens a conversation's menu in the list and picks `item`. */
async function conversationMenu(page: Page, index: number, item: string) {
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  await nav.getByRole('button', { name: 'Conversation actions', exact: true }).nth(index).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('a member exports, imports and shares a conversation; others open the link signed in or after signing in; revoked links stop', async ({
  browser,
  atrium,
}) => {
  const { roomId } = await seed(atrium);
  const page = await signedInPage(browser, atrium, OWNER);
  await page.goto(`${atrium.url}#/${roomId}`);
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  await expect(nav.getByText(TITLE)).toHaveCount(1);

  // Export as JSON: a file named after the Chinese title, holding the conversation.
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    conversationMenu(page, 0, 'Export as JSON'),
  ]);
  expect(json.suggestedFilename()).toBe(`${TITLE}.json`);
  // Saved under its own name, as the browser would, to be picked for the import.
  const jsonPath = join(mkdtempSync(join(tmpdir(), 'atrium-share-')), json.suggestedFilename());
  await json.saveAs(jsonPath);
  const file = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
    format: string;
    version: number;
    conversations: { title: string; room: { title: string }; messages: { content: string }[] }[];
  };
  expect(file).toMatchObject({ format: 'atrium-chat-export', version: 1 });
  expect(file.conversations[0]?.title).toBe(TITLE);
  expect(file.conversations[0]?.room.title).toBe('财务助手');
  expect(file.conversations[0]?.messages.map((m) => m.content)).toEqual([
    'How did the quarter go?',
    '**Summary** of How did the quarter go?:\n\n- revenue up\n- costs down',
  ]);

  // Export as Markdown, in the interface's language.
  const [markdown] = await Promise.all([
    page.waitForEvent('download'),
    conversationMenu(page, 0, 'Export as Markdown'),
  ]);
  expect(markdown.suggestedFilename()).toBe(`${TITLE}.md`);
  const md = readFileSync(await markdown.path(), 'utf8');
  expect(md).toContain(`# ${TITLE}\n\n- Room: 财务助手`);
  expect(md).toMatch(/### You · .+\n\nHow did the quarter go\?/);

  // Import the JSON back: a second conversation with the same content.
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import conversations' });
  await dialog.getByTestId('chat-import-file').setInputFiles(jsonPath);
  await expect(dialog).toContainText(`Chosen: ${TITLE}.json`);
  await snap(page, 'import-en-1280');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toContainText('Imported 1 conversation(s), 2 messages');
  await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(nav.getByText(TITLE)).toHaveCount(2);
  await nav.getByText(TITLE).nth(1).click();
  await expect(page.locator('[data-role="assistant"]')).toContainText('revenue up');

  // Share: the link shows a snapshot; a question asked later is not in it.
  await conversationMenu(page, 0, 'Share link');
  const share = page.getByRole('dialog', { name: `Share “${TITLE}”` });
  await expect(share).toContainText('On this site, shared links open only for signed-in members.');
  await share.getByRole('button', { name: 'Create link' }).click();
  const link = await share.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(link).toMatch(/#\/share\/[A-Za-z0-9_-]{43}$/);
  await snap(page, 'dialog-en-1280');
  await share.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

  // A signed-in member of the site opens it: read-only, no composer.
  const reader = await signedInPage(browser, atrium, READER);
  await reader.goto(link);
  await expect(reader.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(reader.getByRole('link', { name: '财务助手' })).toBeVisible();
  await expect(reader.getByText('Read-only snapshot')).toBeVisible();
  await expect(reader.locator('[data-role="assistant"] strong')).toHaveText('Summary');
  await expect(reader.getByRole('textbox')).toHaveCount(0);
  await expect(reader.locator('meta[name="robots"]')).toHaveAttribute(
    'content',
    'noindex, nofollow',
  );

  // A visitor is sent to sign in, and back to the link.
  const visitor = await signedInPage(browser, atrium, undefined);
  await visitor.goto(link);
  await expect(visitor).toHaveURL(/#\/login\?redirect=%2Fshare%2F/);
  await visitor.getByLabel('Username', { exact: true }).fill(READER.username);
  await visitor.getByLabel('Password', { exact: true }).fill(READER.password);
  await visitor.getByRole('button', { name: /Sign in/ }).click();
  await expect(visitor.getByRole('heading', { name: TITLE })).toBeVisible();

  // The owner lists and revokes the link; it stops opening.
  await page.getByRole('button', { name: 'My share links' }).click();
  const links = page.getByRole('dialog', { name: 'My share links' });
  await expect(links.getByText(TITLE)).toBeVisible();
  await expect(links).toContainText('Sign-in needed');
  await links.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.locator('.ant-modal').filter({ hasText: 'Revoke the share link of' });
  await confirm.getByRole('button', { name: 'OK' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(links).toContainText('No share links yet');
  await reader.reload();
  await expect(reader.getByText('Link not found or revoked')).toBeVisible();
});

test('an admin allows public links; a visitor opens one without signing in until it is turned off', async ({
  browser,
  atrium,
}) => {
  const { roomId } = await seed(atrium);
  const admin = await signedInPage(browser, atrium, undefined);
  await admin.goto(`${atrium.adminUrl}#/login`);
  await admin.getByLabel('Username', { exact: true }).fill('admin');
  await admin.getByLabel('Password', { exact: true }).fill(atrium.adminPassword);
  await admin.getByRole('button', { name: /Sign in/ }).click();
  await expect(admin).toHaveURL(/#\/dashboard$/);
  await admin.goto(`${atrium.adminUrl}#/system/setting`);
  const card = admin.locator('.ant-card').filter({ hasText: 'Conversation share links' });
  await card.getByRole('switch').click();
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
  // The stored setting shows after a reload (in English at 1280 px; with SCREENSHOTS=1 the
  // setting is photographed in both languages and widths as well).
  for (const [lang, width] of SHOTS ? everyView : ([['en', 1280]] as const)) {
    await admin.evaluate((l) => {
      localStorage.setItem('atrium.lang', l);
      sessionStorage.setItem('e2e-lang', l);
    }, lang);
    await admin.setViewportSize({ width, height: 860 });
    await admin.reload();
    const shown = admin
      .locator('.ant-card')
      .filter({ hasText: /Conversation share links|对话分享链接/ });
    await expect(shown.getByRole('switch')).toBeChecked();
    await shown.scrollIntoViewIfNeeded();
    await snap(admin, `admin-setting-${lang}-${width}`);
  }
  await admin.evaluate(() => localStorage.setItem('atrium.lang', 'en'));
  await admin.evaluate(() => sessionStorage.setItem('e2e-lang', 'en'));
  await admin.setViewportSize({ width: 1280, height: 860 });
  await admin.reload();

  const page = await signedInPage(browser, atrium, OWNER);
  await page.goto(`${atrium.url}#/${roomId}`);
  await conversationMenu(page, 0, 'Share link');
  const share = page.getByRole('dialog', { name: `Share “${TITLE}”` });
  await share.getByRole('checkbox', { name: /Anyone with the link/ }).check();
  await share.getByRole('button', { name: 'Create link' }).click();
  const link = await share.getByRole('textbox', { name: 'Share link' }).inputValue();

  // A visitor reads it signed out: in Chinese at 375 px; the English page's words are checked
  // by their keys (with SCREENSHOTS=1 every language and width is opened and photographed).
  expectBothLanguages(['chatShare.readOnly']);
  for (const [lang, width] of SHOTS ? everyView : ([['zh-CN', 375]] as const)) {
    const visitor = await signedInPage(browser, atrium, undefined, lang, width);
    await visitor.goto(link);
    await expect(visitor.getByRole('heading', { name: TITLE })).toBeVisible();
    await expect(visitor.locator('[data-role="assistant"]')).toContainText('revenue up');
    await expect(visitor.getByText(say(lang, 'chatShare.readOnly'))).toBeVisible();
    await snap(visitor, `page-${lang}-${width}`, { fullPage: true });
    await visitor.context().close();
  }

  // Turned off: public viewing stops at once.
  await card.getByRole('switch').click();
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
  const visitor = await signedInPage(browser, atrium, undefined);
  await visitor.goto(link);
  await expect(visitor).toHaveURL(/#\/login\?redirect=%2Fshare%2F/);
});

test('the conversation menu, share dialog and share links in a phone-wide window', async ({
  browser,
  atrium,
}) => {
  const { roomId, conversationId, owner } = await seed(atrium);
  // A link in the list, as a member who shares sees it.
  await call(owner, 'aigc/share/create', { conversationId });
  // In Chinese at 375 px (the first test walks the same menu in English at 1280 px); the English
  // names are checked by their keys. With SCREENSHOTS=1, every language and width, photographed.
  expectBothLanguages([
    'chat.conversations',
    'chat.conversationActions',
    'chatShare.share',
    'chatShare.createTitle',
    'chatShare.myLinks',
  ]);
  for (const [lang, width] of SHOTS ? everyView : ([['zh-CN', 375]] as const)) {
    const page = await signedInPage(browser, atrium, OWNER, lang, width);
    await page.goto(`${atrium.url}#/${roomId}`);
    const names = {
      list: say(lang, 'chat.conversations'),
      more: say(lang, 'chat.conversationActions'),
      share: say(lang, 'chatShare.share'),
      shareDialog: say(lang, 'chatShare.createTitle', { title: TITLE }),
      links: say(lang, 'chatShare.myLinks'),
    };
    if (width < 600) {
      // The list is a drawer on a phone.
      await page.getByRole('button', { name: names.list }).first().click();
    }
    const nav = page.getByRole('navigation', { name: names.list });
    await nav.getByRole('button', { name: names.more, exact: true }).first().click();
    await expect(page.getByRole('menuitem', { name: names.share })).toBeVisible();
    await snap(page, `menu-${lang}-${width}`);
    await page.getByRole('menuitem', { name: names.share }).click();
    const share = page.getByRole('dialog', { name: names.shareDialog });
    await expect(share).toBeVisible();
    await snap(page, `create-${lang}-${width}`);
    await page.keyboard.press('Escape');
    await expect(share).toHaveCount(0);
    if (width < 600 && !(await page.getByRole('button', { name: names.links }).isVisible())) {
      await page.getByRole('button', { name: names.list }).first().click();
    }
    await page.getByRole('button', { name: names.links }).click();
    await expect(page.getByRole('dialog', { name: names.links })).toBeVisible();
    await snap(page, `links-${lang}-${width}`);
    await page.context().close();
  }
});
