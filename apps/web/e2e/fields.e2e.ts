import { writeFileSync } from 'node:fs';
import type { Envelope } from '@atrium/shared';
import type { Locator, Page } from '@playwright/test';
import { adminIn, send, type Answer } from './api-call';
import { expect, test } from './fixtures';
import { painted } from './page-steps';
import { buttonName, signInAdmin, solidPng } from './files-support';
import { SHOTS, snap } from './snap';

test.describe.configure({ mode: 'serial' });

/** The site settings, as `setting/get` answers them. */
type Settings = Answer<'admin', 'setting/get'>;

async function saveThroughApi(page: Page, patch: Partial<Settings>) {
  const current = await send(adminIn(page), 'setting/get', {});
  return send(adminIn(page), 'setting/save', { settings: { ...current.data, ...patch } });
}

const formItem = (page: Page, label: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: label }) });
/** The banner thumbnails' images, in the order shown. */
const bannerPaths = (page: Page) =>
  formItem(page, '首页横幅')
    .locator('.atrium-field-thumb img')
    .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src') ?? ''));

/**
 * A screenshot of the whole page at `width`, taken with a window as tall as the page: a
 * full-page capture resizes the window while it shoots, and the code editor re-measures mid-way.
 */
async function wholePage(page: Page, width: number, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize({ width, height: 800 });
  await painted(page);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await painted(page);
  await snap(page, name);
}

/** Presses on `from`, moves in small steps onto `to` and lets go, as a hand on a mouse does. */
async function dragOnto(page: Page, from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('nothing to drag');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

test('images: upload two PNGs in the picker, pick both, drag to reorder, save, reload, order kept', async ({
  page,
  atrium,
}, testInfo) => {
  // The worker's server is shared with other specs: unique names keep this test's cards apart.
  const suffix = Date.now().toString(36);
  const files = (['red', 'blue'] as const).map((name, i) => {
    const path = testInfo.outputPath(`${name}-${suffix}.png`);
    writeFileSync(path, solidPng(160, 50, i === 0 ? [220, 40, 40] : [40, 80, 220]));
    return path;
  });
  await signInAdmin(page, atrium, '/system/setting');
  await expect(page.getByLabel('站点名称')).toHaveValue('Atrium');

  await formItem(page, '首页横幅').getByRole('button', { name: '选择图片' }).click();
  const picker = page.locator('.atrium-fp-modal');
  await expect(picker.getByRole('button', { name: /上\s*传/ })).toBeVisible();
  await picker.locator('.atrium-upload input[type="file"]').setInputFiles(files);
  const card = (name: string) => picker.getByRole('checkbox', { name, exact: true });
  await expect(card(`red-${suffix}.png`)).toBeVisible({ timeout: 30_000 });
  await expect(card(`blue-${suffix}.png`)).toBeVisible({ timeout: 30_000 });
  await card(`red-${suffix}.png`).click();
  await card(`blue-${suffix}.png`).click();
  await picker.getByRole('button', { name: buttonName('确定') }).click();
  await expect(picker).toBeHidden();
  // Stored paths are content hashes: red was picked first, so it is the first path.
  const [red, blue] = await bannerPaths(page);
  expect(red).toMatch(/^\/data\/image\/.+\.png$/);
  expect(blue).toMatch(/^\/data\/image\/.+\.png$/);
  expect(red).not.toBe(blue);
  await expect(formItem(page, '首页横幅').getByText('2 / 10')).toBeVisible();

  const tiles = formItem(page, '首页横幅').locator('.atrium-field-thumb-picture');
  await dragOnto(page, tiles.nth(1), tiles.nth(0));
  await expect.poll(() => bannerPaths(page)).toEqual([blue, red]);

  // A slow save keeps the whole page covered by SPEC's overlay until it answers. The test holds
  // the save until it has seen the overlay, so no machine is too slow to catch it.
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/admin\/api\/setting\/save$/, async (route) => {
    await held;
    await route.continue();
  });
  const sent = page.waitForRequest((r) => r.url().endsWith('/admin/api/setting/save'), {
    timeout: 10_000,
  });
  const saved = page.waitForResponse((r) => r.url().endsWith('/admin/api/setting/save'));
  await page.getByRole('button', { name: buttonName('保存', { whole: true }) }).click();
  await sent;
  await expect(page.getByText('加载中...')).toBeVisible();
  release();
  const answer = (await (await saved).json()) as Envelope<Settings>;
  await expect(page.getByText('加载中...')).toBeHidden();
  await page.unroute(/\/admin\/api\/setting\/save$/);
  expect(answer.code).toBe(0);
  expect(answer.data.banners).toEqual([blue, red]);
  await expect(page.getByText('保存成功')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('站点名称')).toHaveValue('Atrium');
  await expect.poll(() => bannerPaths(page)).toEqual([blue, red]);
  const stored = await send(adminIn(page), 'setting/get', {});
  expect(stored.data.banners).toEqual(answer.data.banners);

  // The member home shows them, first one first.
  await page.goto(atrium.url);
  const slides = page.locator('.atrium-banner-slide [role="img"]');
  await expect(slides).toHaveCount(2);
  const firstBackground = await slides
    .first()
    .evaluate((el) => (el as HTMLElement).style.backgroundImage);
  expect(firstBackground).toContain(blue ?? 'missing');
});

test('a rich-text value set before the editor is ready appears once it is', async ({
  page,
  atrium,
}) => {
  await signInAdmin(page, atrium, '/dashboard');
  const about = '<h2>About us</h2><p>We <strong>grow</strong> things together.</p>';
  expect((await saveThroughApi(page, { about })).code).toBe(0);

  // Hold the editor's code back until the settings have arrived and been put into the form.
  let settingsArrived = false;
  page.on('response', (r) => {
    if (r.url().endsWith('/admin/api/setting/get')) settingsArrived = true;
  });
  let releaseEditor: () => void = () => undefined;
  const editorHeld = new Promise<void>((resolve) => (releaseEditor = resolve));
  await page.route(/rich-text-editor-[\w-]+\.js$/, async (route) => {
    await editorHeld;
    await route.continue();
  });

  await page.goto(`${atrium.adminUrl}#/system/setting`);
  await expect(page.getByLabel('站点名称')).toHaveValue('Atrium');
  expect(settingsArrived).toBe(true);
  const about$ = formItem(page, '关于本站');
  // The form holds the settings (the name above) while the editor still loads.
  await expect(about$.getByText('编辑器加载中…')).toBeVisible();
  releaseEditor();

  const editor = about$.locator('.atrium-rte [contenteditable="true"]');
  await expect(editor.locator('h2')).toHaveText('About us');
  await expect(editor.locator('strong')).toHaveText('grow');

  // Its popups sit above everything else, the image picker included (z-index 10000).
  await about$.getByRole('button', { name: '插入图片' }).click();
  const picker = page.locator('.atrium-fp-modal');
  await expect(picker).toBeVisible();
  const layer = await picker.evaluate((el) =>
    Number(getComputedStyle(el.closest('.ant-modal-wrap') ?? el).zIndex),
  );
  expect(layer).toBeGreaterThanOrEqual(10000);
  await picker.locator('.ant-modal-close').click();
  await expect(picker).toBeHidden();

  // And it stays two-way: typing reaches the saved value.
  await editor.locator('p').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Welcome!');
  const saved = page.waitForResponse((r) => r.url().endsWith('/admin/api/setting/save'));
  await page.getByRole('button', { name: buttonName('保存', { whole: true }) }).click();
  const answer = (await (await saved).json()) as Envelope<Settings>;
  expect(answer.data.about).toBe(
    '<h2>About us</h2><p>We <strong>grow</strong> things together. Welcome!</p>',
  );
});

test('invalid JSON is refused by the form and by the server', async ({ page, atrium }) => {
  await signInAdmin(page, atrium, '/system/setting');
  await expect(page.getByLabel('站点名称')).toHaveValue('Atrium');
  let saves = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/admin/api/setting/save')) saves++;
  });

  const code = formItem(page, '高级配置（JSON）').locator('.cm-content');
  /** Replaces the editor's text as a paste does (typing would get brackets closed for us). */
  const replaceCode = async (text: string) => {
    await code.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(text);
  };
  await replaceCode('{"accent": "#4f46e5",\n}');
  await expect(formItem(page, '高级配置（JSON）').getByRole('alert')).toContainText(
    'JSON 格式错误（第 2 行，第 1 列）',
  );
  await page.getByRole('button', { name: buttonName('保存', { whole: true }) }).click();
  await expect(page.getByText('高级配置（JSON）不是合法的 JSON，请修正后再保存')).toBeVisible();
  // Nothing sent: the only save the page makes below is the fixed one (`saves` is 1 then).

  const refused = await saveThroughApi(page, { advanced: '{"a": 1,}' });
  expect(refused.code).toBe(-1);
  // In the page's language, naming the field.
  expect(refused.msg).toMatch(/JSON/);
  expect(refused.msg).toMatch(/[\u4e00-\u9fff]/);

  // Fixed, it saves.
  await replaceCode('{"accent": "#4f46e5"}');
  await expect(formItem(page, '高级配置（JSON）').getByText('JSON 格式正确')).toBeVisible();
  await expect(page.getByText('高级配置（JSON）不是合法的 JSON，请修正后再保存')).toBeHidden();
  const saved = page.waitForResponse((r) => r.url().endsWith('/admin/api/setting/save'));
  await page.getByRole('button', { name: buttonName('保存', { whole: true }) }).click();
  expect(((await (await saved).json()) as Envelope<Settings>).data.advanced).toBe(
    '{"accent": "#4f46e5"}',
  );
  // The page sent one save, the valid one: the refused form never reached the server (the API
  // call above goes from the test, not from the page).
  expect(saves).toBe(1);
});

test('a stored <img onerror> does not run, and the attribute is gone', async ({ page, atrium }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __xss: number };
    w.__xss = 0;
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signInAdmin(page, atrium, '/dashboard');
  const about =
    '<p>Hello</p><img src="/data/none.png" onerror="window.__xss = 1; alert(\'xss\')">' +
    '<p><a href="javascript:window.__xss=2">click</a></p><script>window.__xss = 3</script>';
  const saved = await saveThroughApi(page, { about });
  expect(saved.code).toBe(0);
  expect(saved.data.about).not.toMatch(/onerror|javascript|script/i);

  await page.goto(`${atrium.adminUrl}#/system/setting`);
  const editor = formItem(page, '关于本站').locator('.atrium-rte [contenteditable="true"]');
  await expect(editor.locator('p').first()).toHaveText('Hello');
  await expect(editor.locator('img')).toHaveCount(1);
  await expect(editor.locator('img')).not.toHaveAttribute('onerror', /.*/);
  // The image has failed to load (an onerror would have run by then), and the click has been
  // handled (two frames later).
  await expect
    .poll(() => editor.locator('img').evaluate((img) => (img as HTMLImageElement).complete))
    .toBe(true);
  await editor.getByText('click').click();
  await painted(page);
  expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
  expect(dialogs).toEqual([]);
  const html = await editor.innerHTML();
  expect(html).not.toMatch(/onerror|javascript:/i);
});

test('the settings page with every field filled, at 1280 and 375 px; headers and sign-in pages show the logo', async ({
  page,
  atrium,
}, testInfo) => {
  await signInAdmin(page, atrium, '/system/setting');
  await expect(page.getByLabel('站点名称')).toHaveValue('Atrium');

  // The logo goes in by the direct upload beside "Select image".
  const logoFile = testInfo.outputPath('logo.png');
  writeFileSync(logoFile, solidPng(64, 64, [79, 70, 229]));
  await formItem(page, '标志').locator('.atrium-upload input[type="file"]').setInputFiles(logoFile);
  const logoThumb = formItem(page, '标志').locator('.atrium-field-thumb img');
  await expect(logoThumb).toHaveAttribute('src', /^http:\/\/127\.0\.0\.1:\d+\/data\/.+\.png$/, {
    timeout: 30_000,
  });
  await expect(logoThumb).toHaveJSProperty('naturalWidth', 64);

  await page.getByLabel('站点名称').fill('Garden Chat');
  await formItem(page, '额外的 meta 标签').getByRole('button', { name: /添加/ }).click();
  await page.getByLabel('名称 1', { exact: true }).fill('description');
  await page.getByLabel('内容 1', { exact: true }).fill('Chat rooms for gardeners');
  const saved = page.waitForResponse((r) => r.url().endsWith('/admin/api/setting/save'));
  await page.getByRole('button', { name: buttonName('保存', { whole: true }) }).click();
  const answer = (await (await saved).json()) as Envelope<Settings>;
  expect(answer.code).toBe(0);
  expect(answer.data.metaTags).toEqual([
    { name: 'description', value: 'Chat rooms for gardeners' },
  ]);
  const logo = answer.data.logo;
  const rest = {
    favicon: logo,
    terms: '/data/file/2026/terms.pdf',
    about: '<h2>Welcome</h2><p>Chat rooms where gardeners <strong>share</strong> what grows.</p>',
    advanced: '{\n  "theme": { "accent": "#4f46e5" },\n  "features": ["rooms", "files"]\n}',
  };
  const before = await send(adminIn(page), 'setting/get', {});
  // Run alone, this test has no banners from the first one: the logo stands in.
  const banners = before.data.banners.length > 0 ? before.data.banners : [logo];
  expect((await saveThroughApi(page, { ...rest, banners })).code).toBe(0);

  await page.reload();
  await expect(page.getByLabel('站点名称')).toHaveValue('Garden Chat');
  await expect(formItem(page, '关于本站').locator('.atrium-rte h2')).toBeVisible();
  await expect(
    formItem(page, '服务条款文档').getByRole('link', { name: 'terms.pdf' }),
  ).toBeVisible();
  await expect(formItem(page, '高级配置（JSON）').locator('.cm-content')).toContainText('features');
  await wholePage(page, 1280, 'settings-1280');
  await wholePage(page, 375, 'settings-375');

  // The member app: site name, logo, banner, favicon and meta tag.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(atrium.url);
  await expect(page.locator('header').getByText('Garden Chat')).toBeVisible();
  await expect(page.locator('header img')).toHaveAttribute('src', logo);
  await expect(page.locator('.atrium-banner')).toBeVisible();
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    'Chat rooms for gardeners',
  );
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', logo);
  await expect(page).toHaveTitle('Garden Chat');
  await snap(page, 'member-home-1280');

  // The admin header and both sign-in pages show it too.
  await page.goto(atrium.adminUrl);
  await expect(page.locator('header img').first()).toHaveAttribute('src', logo);
  const guest = await page.context().browser()?.newPage();
  if (!guest) throw new Error('no browser');
  for (const [url, shot] of [
    [`${atrium.adminUrl}#/login`, 'admin-login-logo-375'],
    [`${atrium.url}#/login`, 'member-login-logo-375'],
  ] as const) {
    await guest.setViewportSize({ width: 375, height: 812 });
    await guest.goto(url);
    await expect(guest.locator('.ant-card img').first()).toHaveAttribute('src', logo);
    await snap(guest, shot);
  }
  await guest.close();
});
