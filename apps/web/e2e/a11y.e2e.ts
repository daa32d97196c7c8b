import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../../server/src/testing/fake-openai';
import { adminAuth, call } from './api-call';
import { seedRoom, type Member } from './seed';
import { SHOTS, snap } from './snap';
import { expect, test, type AtriumServer } from './fixtures';
import { expectNoSeriousViolations } from './axe';
import { buttonName } from './files-support';

/**
 * Zero critical and zero serious axe violations (WCAG 2.1 A/AA, issue 29 point 1) on every route
 * of both areas, signed out and signed in, in zh-CN and en, at 1280 and 375 px, in the light and
 * the dark theme; with the picker, one of its sub-dialogs, the room editor, the share page, the
 * usage page and a chat holding a streamed answer open.
 *
 * One test per area and language; inside it one signed-out and one signed-in page walk the
 * routes by their hash (no reload between routes), for each theme and width. Every page view is
 * checked softly, so one run names every violation (rule, impact, elements).
 *
 * Colours come from the theme's tokens whatever the language, and a language's words and `lang`
 * show the same in either theme: zh-CN walks both themes, en the light one (both widths), so every
 * view is scanned in both languages, both widths and both themes without scanning each view in
 * all eight. With SCREENSHOTS=1, en walks the dark theme too (its pictures are looked at).
 */

type Lang = 'zh-CN' | 'en';
type Theme = 'light' | 'dark';

const langs: Lang[] = ['zh-CN', 'en'];
const themes: Theme[] = ['light', 'dark'];
/** The themes a language's walk scans (see above). */
const themesOf = (lang: Lang): Theme[] => (lang === 'en' && !SHOTS ? ['light'] : themes);
const themesSaid = (lang: Lang) =>
  themesOf(lang).length === themes.length ? 'both widths and themes' : 'both widths, light theme';
const widths = [1280, 375] as const;

const MEMBER = { username: 'a11y_member', password: 'a11y-Member-pass-29' };
const story = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

const words = {
  'zh-CN': {
    newRoom: '新建聊天室',
    parent: '上级分类',
    cancel: '取消',
    selectVideo: '选择视频',
    addCategory: '新增分类',
    message: '输入消息',
  },
  en: {
    newRoom: 'New room',
    parent: 'Parent',
    cancel: 'Cancel',
    selectVideo: 'Select video',
    addCategory: 'Add Category',
    message: 'Type a message',
  },
} as const;

interface Seeded {
  roomId: number;
  conversationId: number;
  shareToken: string;
  member: Member;
}

let fake: FakeOpenAi;
const seededServers = new Map<string, Promise<Seeded>>();

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['a11y-model'] });
  fake.setDefault({ text: story, delayMs: 40 });
});

test.afterAll(async () => {
  await fake.close();
});

/** A model, a room, a member with a conversation holding a finished answer, and its share link. */
async function seedOnce(atrium: AtriumServer): Promise<Seeded> {
  const room = await seedRoom(atrium, {
    providerUrl: fake.url,
    model: { name: 'a11y-model', title: 'A11y model' },
    room: {
      title: 'A11y room',
      description: '<p>Answers for the <b>accessibility</b> scan.</p>',
      prompts: [{ name: 'A fable', value: 'Tell me a fable' }],
      sort: 0,
    },
    members: [MEMBER],
    conversation: { title: 'Scan talk', ask: 'Tell me a story' },
  });
  const conversationId = room.conversationId ?? 0;
  const share = await call(room.member, 'aigc/share/create', { conversationId });
  return { roomId: room.roomId, conversationId, shareToken: share.token, member: room.member };
}

/** Each worker's server is seeded once, by whichever test of this file comes first. */
function seeded(atrium: AtriumServer): Promise<Seeded> {
  let seeding = seededServers.get(atrium.url);
  if (!seeding) {
    seeding = seedOnce(atrium);
    seededServers.set(atrium.url, seeding);
  }
  return seeding;
}

/** What one test saw: per rule, its impact and the page views it broke. */
class Tally {
  constructor(readonly title: string) {}
  views = 0;
  readonly rules = new Map<
    string,
    { impact: string; views: number; targets: Map<string, string> }
  >();
  private readonly started = Date.now();

  private readonly slowest: [number, string][] = [];

  async scan(page: Page, label: string): Promise<void> {
    this.views += 1;
    // To be looked at (the colours changed with the theme tokens); the suite never takes them.
    await snap(page, label.replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 90), { fullPage: true });
    const start = Date.now();
    const found = await expectNoSeriousViolations(page, label);
    this.slowest.push([Date.now() - start, label]);
    for (const v of found) {
      const seen = this.rules.get(v.rule) ?? {
        impact: v.impact,
        views: 0,
        targets: new Map<string, string>(),
      };
      seen.views += 1;
      for (const target of v.targets)
        if (!seen.targets.has(target)) seen.targets.set(target, label);
      this.rules.set(v.rule, seen);
    }
  }

  report(): void {
    const title = this.title;
    const lines = [...this.rules].map(
      ([rule, s]) =>
        `  ${rule} (${s.impact}): ${s.views}\n      ${[...s.targets]
          .slice(0, 12)
          .map(([t, l]) => `${t}  [${l}]`)
          .join('\n      ')}`,
    );
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    const slow = this.slowest
      .sort((a, b) => b[0] - a[0])
      .slice(0, 3)
      .map(([ms, label]) => `${label} ${ms} ms`);
    console.log(
      `[a11y] ${title}: ${this.views} page views in ${seconds} s (slowest scans: ${slow.join(', ')})\n${lines.join('\n') || '  none'}`,
    );
  }
}

/** The tally of the running test, reported when it ends (passed or not). */
let current: Tally | undefined;
test.afterEach(() => {
  current?.report();
  current = undefined;
});

/** The page has its data: no spinner or skeleton left, fonts in. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await expect(page.locator('.ant-skeleton-active')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Chooses the language and theme as a visitor's stored preferences, then loads the page again. */
async function prefer(page: Page, lang: Lang, theme: Theme): Promise<void> {
  // A page may still ask whether to leave (beforeunload): the reload goes ahead.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.evaluate(
    ([l, t]) => {
      localStorage.setItem('atrium.lang', l);
      localStorage.setItem('atrium.theme', t);
    },
    [lang, theme] as const,
  );
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Opens `path` of an app by its hash (the app stays loaded) and scans it once settled. */
async function visit(page: Page, appUrl: string, path: string, tally: Tally, label: string) {
  await page.goto(`${appUrl}#${path}`);
  await expect(page.locator('#app')).not.toBeEmpty();
  await settled(page);
  await tally.scan(page, `${label} ${path}`);
}

async function newPage(browser: Browser, cookies: Parameters<BrowserContext['addCookies']>[0]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (cookies.length > 0) await context.addCookies(cookies);
  return context.newPage();
}

for (const lang of langs) {
  test(`member area (${lang}): every route, signed out and in, ${themesSaid(lang)}, a streamed answer`, async ({
    browser,
    atrium,
  }) => {
    test.setTimeout(240_000);
    const seed = await seeded(atrium);
    const tally = (current = new Tally(`member ${lang}`));
    const out = await newPage(browser, []);
    const member = await newPage(browser, [
      { name: 'api-token', value: seed.member.token, url: atrium.url },
    ]);
    await out.goto(`${atrium.url}#/login`);
    await member.goto(atrium.url);
    const signedIn = [
      '/',
      '/files',
      '/profile',
      `/share/${seed.shareToken}`,
      `/${seed.roomId}?c=${seed.conversationId}`,
      '/no-such-page',
    ];
    for (const theme of themesOf(lang)) {
      await prefer(out, lang, theme);
      await prefer(member, lang, theme);
      for (const width of widths) {
        const label = `member ${lang} ${theme} ${width}px`;
        await out.setViewportSize({ width, height: 800 });
        await member.setViewportSize({ width, height: 800 });
        for (const path of ['/login', '/register', '/forgot-password'])
          await visit(out, atrium.url, path, tally, `${label} signed out`);
        for (const path of signedIn) await visit(member, atrium.url, path, tally, label);
      }
    }
    // An answer while it streams, and once it settled (in the last theme walked, at 375 px).
    const last = `member ${lang} ${themesOf(lang).at(-1) ?? 'light'} 375px`;
    await visit(member, atrium.url, signedIn[4] ?? '', tally, last);
    const box = member.getByRole('textbox', { name: words[lang].message });
    await box.fill('Another story, please');
    await box.press('Enter');
    const answer = member.locator('[data-role="assistant"]').last();
    await expect(answer).toHaveAttribute('data-status', 'streaming');
    await tally.scan(member, `${last} streaming answer`);
    await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await tally.scan(member, `${last} streamed answer`);
    await out.context().close();
    await member.context().close();
  });

  test(`admin area (${lang}): every route, signed out and in, ${themesSaid(lang)}, the room editor, the picker and a sub-dialog`, async ({
    browser,
    atrium,
  }) => {
    test.setTimeout(240_000);
    await seeded(atrium);
    const tally = (current = new Tally(`admin ${lang}`));
    const admin = await adminAuth(atrium);
    const out = await newPage(browser, []);
    const signed = await newPage(browser, [
      { name: 'admin-api-token', value: admin.token, url: atrium.url },
    ]);
    await out.goto(`${atrium.adminUrl}#/login`);
    await signed.goto(`${atrium.adminUrl}#/dashboard`);
    const routes = [
      '/dashboard',
      '/data/file_manager',
      '/data/file_manager/select/image',
      '/system/outbox',
      '/system/message',
      '/system/admin',
      '/system/role',
      '/member',
      '/system/setting',
      '/system/upload',
      '/system/audit',
      '/aigc/model',
      '/aigc/usage',
      '/no-such-page',
      '/aigc/chat_room',
    ];
    const w = words[lang];
    for (const theme of themesOf(lang)) {
      await prefer(out, lang, theme);
      await prefer(signed, lang, theme);
      for (const width of widths) {
        const label = `admin ${lang} ${theme} ${width}px`;
        await out.setViewportSize({ width, height: 800 });
        await signed.setViewportSize({ width, height: 800 });
        await visit(out, atrium.adminUrl, '/login', tally, `${label} signed out`);
        for (const path of routes) await visit(signed, atrium.adminUrl, path, tally, label);

        // The room editor, the picker its video field opens, and the picker's new-category dialog.
        await signed
          .getByRole('button', { name: buttonName(w.newRoom) })
          .first()
          .click();
        const editor = signed.locator('.ant-drawer-open');
        await expect(editor).toBeVisible();
        await settled(signed);
        await tally.scan(signed, `${label} room editor`);
        await editor.getByRole('button', { name: buttonName(w.selectVideo) }).click();
        const picker = signed.locator('.atrium-fp-modal');
        await expect(picker).toBeVisible();
        await settled(signed);
        await tally.scan(signed, `${label} picker`);
        // The category tree (and its "add" button) sits beside the grid on a wide window only.
        if (width === 1280) {
          await picker
            .locator('.atrium-fp-side')
            .getByRole('button', { name: w.addCategory })
            .click();
          const sub = signed.locator('.ant-modal').filter({ hasText: w.parent });
          await expect(sub).toBeVisible();
          await tally.scan(signed, `${label} picker sub-dialog`);
          await signed.keyboard.press('Escape');
        }
        await signed.keyboard.press('Escape');
        await expect(picker).toBeHidden();
        // Closed untouched, so the reload for the next theme meets no unsaved-edits guard.
        await editor
          .locator('.ant-drawer-extra')
          .getByRole('button', { name: buttonName(w.cancel) })
          .click();
        await expect(editor).toBeHidden();
      }
    }
    await out.context().close();
    await signed.context().close();
  });
}
