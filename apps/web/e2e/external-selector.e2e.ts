import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { adminIn, send } from './api-call';
import { expect, test, type AtriumServer } from './fixtures';
import { SHOTS, snap } from './snap';
import { buttonName, signInAdmin } from './files-support';

/**
 * SPEC 2.4's external selector, end to end (issue 28, point 3): a second loopback site serves a
 * selector page that posts a choice back; inside it, a frame of yet another origin posts one too.
 */

/** The selector page at `/pick/<category>`, and a page of another origin it frames. */
function selectorSite(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><meta charset="utf-8"><body>${body}</body></html>`);
    };
    if (url.pathname.startsWith('/pick/')) {
      const category = url.pathname.slice('/pick/'.length);
      html(
        `<h1>Test selector: ${category}</h1>` +
          '<button id="pick" type="button">Pick sunrise</button>' +
          // localhost and 127.0.0.1 are two origins: this frame is the stranger.
          `<iframe title="stranger" src="http://localhost:${port}/stranger"></iframe>` +
          '<script>document.getElementById("pick").onclick = () => parent.postMessage(' +
          '{ items: [{ path: "/data/image/ext/sunrise.png", filename: "sunrise.png" }] }, "*");' +
          '</script>',
      );
      return;
    }
    if (url.pathname === '/stranger') {
      html(
        '<script>top.postMessage([{ path: "/data/image/ext/stranger.png" }], "*");</script>' +
          '<p>stranger posted</p>',
      );
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    );
  });
}

const words = {
  'zh-CN': {
    external: '外部选择器',
    address: '外部选择器地址',
    required: '使用外部选择器时请填写外部选择器地址',
    save: '保存',
    saved: '保存成功',
    logo: '标志',
    select: '选择图片',
    title: '请选择',
    reload: '刷新页面',
  },
  en: {
    external: 'External selector',
    address: 'External selector address',
    required: 'Enter the external selector address to use the external selector',
    save: 'Save',
    saved: 'Save Success',
    logo: 'Logo',
    select: 'Select image',
    title: 'Please Select',
    reload: 'Reload page',
  },
} as const;

type Lang = keyof typeof words;

const formItem = (page: Page, label: string) =>
  page
    .locator('.ant-form-item')
    .filter({ has: page.locator('label', { hasText: new RegExp(`^${label}$`) }) });

async function builtin(page: Page): Promise<void> {
  const current = await send(adminIn(page), 'setting/get', {});
  const saved = await send(adminIn(page), 'setting/save', {
    settings: { ...current.data, selectorMode: 'builtin', selectorServer: '' },
  });
  expect(saved.code).toBe(0);
}

async function pass(
  browser: Browser,
  atrium: AtriumServer,
  lang: Lang,
  width: number,
  selector: string,
): Promise<void> {
  const w = words[lang];
  const context = await browser.newContext({
    locale: lang === 'en' ? 'en-US' : 'zh-CN',
    viewport: { width, height: width < 600 ? 812 : 800 },
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  try {
    await signInAdmin(page, atrium, '/system/setting');
    await builtin(page);
    await page.reload();

    // External without an address: refused by the form, under the field, before any save.
    let saves = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/admin/api/setting/save')) saves++;
    });
    await page.getByRole('radio', { name: w.external }).check();
    await page.getByRole('button', { name: buttonName(w.save, { whole: true }) }).click();
    await expect(formItem(page, w.address).getByText(w.required)).toBeVisible();
    expect(saves).toBe(0);
    if (SHOTS) {
      await formItem(page, w.address).scrollIntoViewIfNeeded();
      await snap(page, `selector-refused-${lang}-${width}`);
    }

    await formItem(page, w.address).getByRole('textbox').fill(selector);
    await page.getByRole('button', { name: buttonName(w.save, { whole: true }) }).click();
    await expect(page.getByText(w.saved)).toBeVisible();

    // The page's policy is the one it was loaded with: until a reload the frame is refused, and
    // the dialog says so with a way out; the reloaded page frames the saved origin, and only it.
    const openPicker = () =>
      formItem(page, w.logo)
        .getByRole('button', { name: buttonName(w.select) })
        .click();
    await openPicker();
    const reload = page.getByRole('button', { name: w.reload });
    await expect(reload).toBeVisible();
    if (SHOTS) await snap(page, `selector-reload-${lang}-${width}`);
    const loaded = page.waitForResponse((r) => r.url() === atrium.adminUrl);
    await reload.click();
    const policy = (await (await loaded).allHeaders())['content-security-policy'] ?? '';
    expect(policy).toContain(`frame-src 'self' ${new URL(selector).origin};`);
    expect(policy).not.toContain('localhost');

    await openPicker();
    const dialog = page.getByRole('dialog', { name: w.title });
    const frame = page.frameLocator('iframe.atrium-fp-selector-frame');
    await expect(frame.getByRole('heading', { name: 'Test selector: image' })).toBeVisible();
    // The stranger's frame has loaded and posted: its choice is not taken.
    await expect(
      frame.frameLocator('iframe[title="stranger"]').getByText('stranger posted'),
    ).toBeVisible();
    await expect(dialog).toBeVisible();
    if (SHOTS) await snap(page, `selector-frame-${lang}-${width}`);

    await frame.getByRole('button', { name: 'Pick sunrise' }).click();
    await expect(dialog).toBeHidden();
    // The logo field holds the path the selector chose (named by its file), not the stranger's.
    await expect(formItem(page, w.logo).getByRole('img', { name: 'sunrise.png' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'stranger.png' })).toHaveCount(0);
    if (SHOTS) await snap(page, `selector-picked-${lang}-${width}`);
  } finally {
    // The worker's server serves other specs: they expect the built-in picker.
    await builtin(page).catch(() => undefined);
    await context.close();
  }
}

test('the external selector opens in its frame, and only its own choice reaches the form', async ({
  browser,
  atrium,
}) => {
  test.setTimeout(120_000);
  const { server, port } = await selectorSite();
  try {
    const selector = `http://127.0.0.1:${port}/pick`;
    await pass(browser, atrium, 'zh-CN', 1280, selector);
    await pass(browser, atrium, 'en', 375, selector);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
