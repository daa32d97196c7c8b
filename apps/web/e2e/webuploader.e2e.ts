import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { TokenKey } from '@atrium/shared/limits';
import type { Page, Request } from '@playwright/test';
import { adminIn, sendLibrary } from './api-call';
import { test, expect, type AtriumServer } from './fixtures';
import { snap } from './snap';
import { actionOf, chunkIndex, signInAdmin, writeTextFile } from './files-support';

/*
 * The original client unchanged (DESIGN 6): WebUploader 0.1.8 and jQuery from npm, driven the
 * way ModStart's upload button drives them (modstart-upload-button.js), against the admin file
 * library of a real Atrium server.
 */

const MiB = 1024 * 1024;
const server = '/admin/data/file_manager/file';
const require = createRequire(import.meta.url);
const scripts = [
  require.resolve('jquery/dist/jquery.js'),
  require.resolve('webuploader/dist/webuploader.js'),
  fileURLToPath(new URL('./modstart-upload-button.js', import.meta.url)),
];
const webuploaderCss = require.resolve('webuploader/dist/webuploader.css');
const styles = `
  #modstart-upload { position: fixed; right: 24px; bottom: 24px; width: 320px; padding: 16px;
    background: #fff; border: 1px solid #ddd; border-radius: 8px; z-index: 10000;
    font: 13px sans-serif; box-shadow: 0 4px 16px rgba(0,0,0,.15); }
  #modstart-upload .webuploader-pick { background: #1677ff; padding: 6px 16px; }
  #modstart-upload .webuploader-list { list-style: none; margin: 8px 0 0; padding: 0; }
  #modstart-upload li { position: relative; margin: 4px 0; padding: 4px 8px; background: #f3f3f3; }
  #modstart-upload li.done { background: #e6f7e6; }
  #modstart-upload li.done::after { content: ' ✓'; color: #389e0d; }
  #modstart-upload .progress-bar { position: absolute; left: 0; top: 0; bottom: 0; width: 0;
    background: rgba(24,144,255,.25); }
  #modstart-upload .name { position: relative; }
`;

interface Uploaded {
  name: string;
  size: number;
  path: string;
  fullPath: string;
}

interface ButtonOptions {
  server: string;
  headers: Record<string, string>;
  chunkSize: number;
  sizeLimit: number;
  extensions: string;
  callback: (file: Uploaded) => void;
  onError: (message: string) => void;
}

declare global {
  interface Window {
    modstartUploadButton: (selector: string, options: ButtonOptions) => unknown;
    uploaded: Uploaded[];
    uploadErrors: string[];
  }
}

// The scripts are put into the page inline, as a site would serve them with its own pages.
test.use({ bypassCSP: true });

const md5Of = (data: Buffer) => createHash('md5').update(data).digest('hex');

/**
 * Puts ModStart's upload button on the page, its headers fixed to the token cookie as of now.
 * `moreExtensions` are let through by the button on top of the library's (a page whose list is
 * out of date), so the server is the one to refuse them.
 */
async function addUploadButton(page: Page, moreExtensions: string[] = []): Promise<void> {
  for (const path of scripts) await page.addScriptTag({ path });
  await page.addStyleTag({ path: webuploaderCss });
  await page.addStyleTag({ content: styles });
  const config = await sendLibrary(adminIn(page), 'file', { action: 'config' });
  expect(config.code).toBe(0);
  await page.evaluate(
    ({ server, tokenKey, config, moreExtensions }) => {
      const token = decodeURIComponent(
        document.cookie
          .split(';')
          .map((part) => part.trim())
          .find((part) => part.startsWith(`${tokenKey}=`))
          ?.slice(tokenKey.length + 1) ?? '',
      );
      const holder = document.createElement('div');
      holder.id = 'modstart-upload';
      document.body.append(holder);
      window.uploaded = [];
      window.uploadErrors = [];
      window.modstartUploadButton('#modstart-upload', {
        server,
        headers: { [tokenKey]: token },
        chunkSize: config.chunkSize,
        sizeLimit: config.category.file.maxSize,
        extensions: [...config.category.file.extensions, ...moreExtensions].join(','),
        callback: (file) => window.uploaded.push(file),
        onError: (message) => window.uploadErrors.push(message),
      });
    },
    { server, tokenKey: TokenKey.admin, config: config.data, moreExtensions },
  );
}

/** Picks a file with the button and waits for ModStart's callback; what it was handed. */
async function upload(page: Page, file: string): Promise<Uploaded> {
  const before = await page.evaluate(() => window.uploaded.length);
  await page.locator('#modstart-upload input[type="file"]').setInputFiles(file);
  await expect
    .poll(() => page.evaluate(() => window.uploaded.length + window.uploadErrors.length), {
      timeout: 60_000,
    })
    .toBeGreaterThan(before);
  expect(await page.evaluate(() => window.uploadErrors)).toEqual([]);
  const result = await page.evaluate((index) => window.uploaded[index], before);
  if (!result) throw new Error('no upload result');
  return result;
}

/** Every chunk request a page sends; `chunk` is undefined when the form leaves the field out. */
async function watchChunks(page: Page): Promise<{ chunk: number | undefined }[]> {
  // Playwright sees a body with a file part only on a request it routes.
  await page.route(`**${server}`, (route) => route.fallback());
  const sent: { chunk: number | undefined }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith(server)) return;
    if (!(request.headers()['content-type'] ?? '').startsWith('multipart/form-data')) return;
    sent.push({ chunk: chunkIndex(request) });
  });
  return sent;
}

function watchInits(page: Page): { chunkUploaded: number; path?: string }[] {
  const answers: { chunkUploaded: number; path?: string }[] = [];
  page.on('response', async (response) => {
    if (actionOf(response.request()) !== 'init') return;
    const body = (await response.json()) as { data: { chunkUploaded: number; path?: string } };
    answers.push(body.data);
  });
  return answers;
}

/** The bytes the library serves at the path match the file, as a user downloading it sees. */
async function expectServed(page: Page, uploaded: Uploaded, file: string): Promise<void> {
  const local = readFileSync(file);
  expect(uploaded.size).toBe(local.length);
  const served = await page.request.get(uploaded.fullPath);
  expect(served.status()).toBe(200);
  expect(md5Of(await served.body())).toBe(md5Of(local));
}

async function saveToLibrary(
  page: Page,
  uploaded: Uploaded,
): Promise<{ path: string; existing?: true }> {
  const saved = await sendLibrary(adminIn(page), 'file', {
    action: 'save',
    path: uploaded.path,
    name: uploaded.name,
    size: uploaded.size,
    categoryId: 0,
  });
  expect(saved.code, saved.msg).toBe(0);
  return saved.data;
}

async function openLibrary(page: Page, atrium: AtriumServer): Promise<void> {
  await signInAdmin(page, atrium, '/data/file_manager?library=file');
  await expect(page.getByRole('button', { name: /上\s*传/ })).toBeVisible();
}

test('WebUploader as ModStart drives it uploads a one-chunk file, a multi-chunk file, and the same file again at once', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  const seed = `modstart ${Date.now()}`;
  const small = testInfo.outputPath('modstart-small.txt');
  writeTextFile(small, 300 * 1024, `${seed} small`);
  const big = testInfo.outputPath('modstart-big.txt');
  writeTextFile(big, 12 * MiB, `${seed} big`);

  await openLibrary(page, atrium);
  await addUploadButton(page);
  const sent = await watchChunks(page);
  const inits = watchInits(page);

  // One chunk: WebUploader leaves out the chunks and chunk fields.
  const one = await upload(page, small);
  expect(sent).toEqual([{ chunk: undefined }]);
  await expectServed(page, one, small);

  // Three chunks of 5 MiB, sent one after another.
  sent.length = 0;
  const three = await upload(page, big);
  expect(sent.map((s) => s.chunk)).toEqual([0, 1, 2]);
  await expectServed(page, three, big);

  // The same file again: init holds it all; the skip rule still sends the last chunk, whose
  // answer is the finished upload: an upload of its own, at an address of its own.
  sent.length = 0;
  const again = await upload(page, big);
  expect(inits.at(-1)).toMatchObject({ chunkUploaded: 3, path: again.path });
  expect(sent.map((s) => s.chunk)).toEqual([2]);
  expect(again).toMatchObject({ name: three.name, size: three.size });
  expect(again.path).not.toBe(three.path);
  expect(again.path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/modstart-big\.txt$/);
  await expectServed(page, again, big);

  await expect(page.locator('#modstart-upload li.done')).toHaveCount(3);
  await snap(page, 'uploaded');

  // ModStart's picker files each upload into the library; the user then sees them there. The
  // same bytes under the same name in the same category are filed once (issue 28): the second
  // save answers the existing file.
  for (const uploaded of [one, three])
    expect(await saveToLibrary(page, uploaded)).not.toHaveProperty('existing');
  expect(await saveToLibrary(page, again)).toMatchObject({ existing: true, path: three.path });
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'modstart-small.txt' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'modstart-big.txt' })).toHaveCount(1);
  await snap(page, 'library');
});

test('WebUploader as ModStart drives it resumes after the tab closed midway, sending at most one held chunk again', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  const file = testInfo.outputPath('modstart-resume.txt');
  writeTextFile(file, 24 * MiB, `modstart resume ${Date.now()}`);
  const chunks = 5;

  // Chunks are held briefly on their way, so the tab can be closed in the middle.
  await page.route(`**${server}`, async (route) => {
    if (chunkIndex(route.request()) !== undefined) await new Promise((r) => setTimeout(r, 400));
    await route.continue().catch(() => undefined);
  });
  const finished: number[] = [];
  page.on('requestfinished', (request) => {
    const index = chunkIndex(request);
    if (index !== undefined) finished.push(index);
  });
  await openLibrary(page, atrium);
  await addUploadButton(page);
  await page.locator('#modstart-upload input[type="file"]').setInputFiles(file);
  await expect.poll(() => finished.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.close();

  const second = await page.context().newPage();
  await second.goto(`${atrium.adminUrl}#/data/file_manager?library=file`);
  await expect(second.getByRole('button', { name: /上\s*传/ })).toBeVisible();
  await addUploadButton(second);
  const sent = await watchChunks(second);
  const inits = watchInits(second);
  const resumed = await upload(second, file);

  const held = inits.at(0)?.chunkUploaded ?? -1;
  expect(held).toBeGreaterThanOrEqual(2);
  const indexes = sent.map((s) => s.chunk ?? -1);
  testInfo.annotations.push({
    type: 'resume',
    description: `init answered chunkUploaded ${held}; sent chunks ${indexes.join(',')}`,
  });
  expect(indexes.filter((index) => index < held).length).toBeLessThanOrEqual(1);
  expect(indexes).toEqual(Array.from({ length: chunks - held + 1 }, (_, i) => held - 1 + i));
  await expectServed(second, resumed, file);
  await saveToLibrary(second, resumed);
  await second.reload();
  await expect(second.getByRole('checkbox', { name: 'modstart-resume.txt' })).toBeVisible();
  await snap(second, 'resumed');
});

test.describe('with a Chinese browser', () => {
  // The browser asks for Chinese (Accept-Language: zh-CN), as a Chinese user's does: WebUploader
  // and ModStart show the server's msg as it is (issue 27).
  test.use({ locale: 'zh-CN' });

  test('WebUploader as ModStart drives it shows the server refusing a file type in Chinese, 文件类型不合法（只能上传…文件）', async ({
    page,
    atrium,
  }, testInfo) => {
    test.setTimeout(60_000);
    const file = testInfo.outputPath('modstart-refused.exe');
    writeFileSync(file, `MZ not a program ${Date.now()}`);
    await openLibrary(page, atrium);
    await addUploadButton(page, ['exe']);
    const config = await sendLibrary(adminIn(page), 'file', { action: 'config' });
    const allowed = config.data.category.file.extensions.join(',');
    const init = page.waitForResponse((response) => actionOf(response.request()) === 'init');

    await page.locator('#modstart-upload input[type="file"]').setInputFiles(file);
    const answer = await init;
    expect(answer.request().headers()['accept-language']).toMatch(/^zh-CN/);
    const expected = `文件类型不合法（只能上传${allowed}文件）`;
    expect(await answer.json()).toMatchObject({
      code: -1,
      msg: expected,
      data: { error: 'files.typeNotAllowed', params: { extensions: allowed } },
    });
    // ModStart's button hands the msg on as it is: the person reads it in Chinese (then the
    // file's rejected init ends it as an "Upload Error" of its own, with no reason).
    await expect.poll(() => page.evaluate(() => window.uploadErrors)).toContain(expected);
    expect((await page.evaluate(() => window.uploadErrors))[0]).toBe(expected);
    expect(await page.evaluate(() => window.uploaded)).toEqual([]);
    await snap(page, 'refused-type');
  });
});

/**
 * A real full disk under the running server: a small tmpfs mounted over its storage folder for
 * this test (root and a container that allows mounts; otherwise the test is skipped). Lazily
 * unmounted after: the server's earlier files are where they were again.
 */
function mountSmallDisk(folder: string, size: string): (() => void) | undefined {
  if (process.getuid?.() !== 0) return undefined;
  mkdirSync(folder, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder], {
      stdio: 'pipe',
    });
  } catch {
    return undefined;
  }
  return () => execFileSync('umount', ['-l', folder]);
}

test('WebUploader as ModStart drives it retries a chunk refused because the disk is full (ShouldRetryUpload) and the file ends byte-identical', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  const storage = join(atrium.dataDir, 'storage');
  const unmount = mountSmallDisk(storage, '16m');
  test.skip(!unmount, 'cannot mount a tmpfs here: no full disk to upload onto');
  try {
    const file = testInfo.outputPath('modstart-disk-full.txt');
    writeTextFile(file, 12 * MiB, `modstart disk full ${Date.now()}`);
    await openLibrary(page, atrium);
    await addUploadButton(page);
    const sent = await watchChunks(page);
    const inits = watchInits(page);

    // Room for the first 5 MiB chunk and not the second; freed once the server has said so.
    const filler = join(storage, 'filler');
    const { bavail, bsize } = statfsSync(storage);
    writeFileSync(filler, Buffer.alloc(bavail * bsize - 6 * MiB));
    const refusals: { code: number; msg: string; data: { params?: { outage?: string } } }[] = [];
    page.on('response', async (response) => {
      if (actionOf(response.request()) !== undefined || response.request().method() !== 'POST')
        return;
      if (!response.url().endsWith(server)) return;
      const body = (await response.json()) as (typeof refusals)[number];
      if (body.code === 0) return;
      refusals.push(body);
      rmSync(filler, { force: true });
    });

    const uploaded = await upload(page, file);
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    for (const refusal of refusals) {
      expect(refusal.code).toBe(1005);
      expect(refusal.msg).toContain('ShouldRetryUpload');
      expect(refusal.data.params?.outage).toBe('diskFull');
    }
    // Retried as a file: init again, resumed from the chunk that was held, never from 0.
    expect(inits.length).toBeGreaterThanOrEqual(2);
    expect(inits.at(-1)?.chunkUploaded).toBeGreaterThanOrEqual(1);
    testInfo.annotations.push({
      type: 'disk full',
      description: `${refusals.length} refusal(s); chunks sent ${sent.map((s) => s.chunk).join(',')}`,
    });
    // Each retry re-sends only the last held chunk (ModStart's skip rule) and the refused one.
    const held = inits.at(-1)?.chunkUploaded ?? 0;
    const retried = sent.slice(held).map((s) => s.chunk ?? -1);
    expect(retried.every((chunk) => chunk >= held - 1)).toBe(true);
    expect(sent.length).toBeLessThanOrEqual(3 + 2 * refusals.length);
    await expectServed(page, uploaded, file);
  } finally {
    unmount?.();
  }
});
