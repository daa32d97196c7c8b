import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { SHOTS, snap } from './snap';
import { painted } from './page-steps';
import { actionOf, chunkIndex, signInAdmin, writeTextFile } from './files-support';

const MiB = 1024 * 1024;
const chunks = 6; // 30 MB in 5 MiB chunks

test('uploads a 30 MB file through the picker with visible progress, resumes after a reload, then uploads it instantly', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(180_000);
  const file = testInfo.outputPath('big-report.txt');
  writeTextFile(file, 30 * MiB, 'atrium');

  // Chunks are held briefly on their way so the progress and the reload can be watched.
  await page.route('**/admin/data/file_manager/file', async (route) => {
    if (chunkIndex(route.request()) !== undefined) await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  const sent: number[] = [];
  const finished: number[] = [];
  const initAnswers: { chunkUploaded: number; missing?: [number, number][]; path?: string }[] = [];
  page.on('request', (request) => {
    const index = chunkIndex(request);
    if (index !== undefined) sent.push(index);
  });
  page.on('requestfinished', (request) => {
    const index = chunkIndex(request);
    if (index !== undefined) finished.push(index);
  });
  page.on('response', async (response) => {
    if (actionOf(response.request()) !== 'init') return;
    const body = (await response.json()) as { data: (typeof initAnswers)[number] };
    initAnswers.push(body.data);
  });

  await signInAdmin(page, atrium, '/data/file_manager?library=file');
  const upload = page.getByRole('button', { name: /上\s*传/ });
  await expect(upload).toBeVisible();

  // First attempt: stop it by reloading once two chunks are stored.
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  const row = page.locator('.atrium-upload-queue li');
  await expect(row).toContainText('big-report.txt');
  await expect(row.locator('.atrium-upload-status')).toContainText(/校验中|上传中/);
  // What the queue says while it uploads, read every 50 ms over both attempts.
  const seen = new Set<string>();
  const readStatus = async () => {
    const status = await row
      .locator('.atrium-upload-status')
      .textContent()
      .catch(() => null);
    if (status) seen.add(status);
  };
  await expect
    .poll(
      async () => {
        await readStatus();
        return finished.length;
      },
      { timeout: 60_000, intervals: [50] },
    )
    .toBeGreaterThanOrEqual(2);
  await page.reload();
  await expect(upload).toBeVisible();
  // The page says what the reload interrupted, from what the browser kept (issue 28).
  const interrupted = page.locator('.atrium-upload-interrupted');
  await expect(interrupted).toContainText('1 个上传被中断：重新选择这个文件即可继续');
  await expect(interrupted.getByRole('listitem')).toHaveText(['big-report.txt']);
  const firstInit = initAnswers.at(0);
  expect(firstInit?.chunkUploaded).toBe(0);

  // Second attempt: init says what the server holds; only the rest is sent.
  const sentBefore = sent.length;
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  await expect(row).toContainText('big-report.txt');
  // Chosen again, it resumes and leaves the list.
  await expect(interrupted).toHaveCount(0);
  await expect
    .poll(
      async () => {
        await readStatus();
        return page.getByRole('checkbox', { name: 'big-report.txt' }).isVisible();
      },
      { timeout: 20_000, intervals: [50] },
    )
    .toBe(true);
  // Chunks go three at a time, so what the server holds may have gaps: init lists the missing
  // ones, and exactly those are sent (the held ones never again).
  const second = initAnswers.at(1);
  const toSend = (second?.missing ?? []).flatMap(([from, to]) =>
    Array.from({ length: to - from }, (_, i) => from + i),
  );
  const sentAfter = sent.slice(sentBefore);
  testInfo.annotations.push({
    type: 'resume',
    description: `init answered ${JSON.stringify(second)}; sent chunks ${sentAfter.join(',')}`,
  });
  expect(chunks - toSend.length).toBeGreaterThanOrEqual(2);
  expect([...sentAfter].sort((a, b) => a - b)).toEqual(toSend);
  // The queue showed its progress while uploading, in steps (over both attempts).
  const uploading = [...seen].filter((s) => /^上传中 \d+%$/.test(s));
  expect(uploading.length).toBeGreaterThanOrEqual(2);
  // ...and fades out once done.
  await expect(row).toHaveCount(0);

  // Third attempt: the same content again sends no chunk at all, and files no twin (issue 28):
  // the existing file is selected, and the queue says so.
  const sentBeforeAgain = sent.length;
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  await expect(row.locator('.atrium-upload-status')).toHaveText('已存在，已选中现有文件');
  const tile = page.getByRole('checkbox', { name: 'big-report.txt' });
  await expect(tile).toHaveCount(1);
  await expect(tile).toBeChecked();
  expect(initAnswers.at(2)?.path).toBeTruthy();
  expect(sent.length).toBe(sentBeforeAgain);
});

/**
 * Issue 28, what a person sees of uploads, at 1280 and 375 px in zh-CN and en: a batch of 18
 * folds into one line and the library stays where it was; a file whose bytes are not what its
 * name says is refused after its first chunk, with no Retry; what a reload interrupted is listed.
 */
test('a batch folds into one line, a mismatched file stops after one chunk, interrupted uploads are listed', async ({
  page,
  atrium,
}, testInfo) => {
  test.setTimeout(120_000);
  const words = {
    'zh-CN': {
      summary: /^上传中 \d+\/18 · \d+%$/,
      finished: '已上传 18/18',
      mismatch: '文件内容与扩展名不符：内容不是 .pdf 文件',
      retry: /重\s*试/,
      interrupted: '2 个上传被中断：重新选择这些文件即可继续',
      dismiss: '不再提示',
    },
    en: {
      summary: /^Uploading \d+\/18 · \d+%$/,
      finished: 'Uploaded 18/18',
      mismatch: 'The file does not match its extension: the content is not a .pdf file',
      retry: /Retry/,
      interrupted: '2 uploads were interrupted: choose the files again to continue',
      dismiss: 'Dismiss',
    },
  } as const;
  // Chunks are held on their way while the batch is looked at.
  let holding = false;
  await page.route('**/admin/data/file_manager/file', async (route) => {
    while (holding && chunkIndex(route.request()) !== undefined)
      await new Promise((r) => setTimeout(r, 50));
    await route.continue();
  });
  const sent: string[] = [];
  page.on('request', (request) => {
    const index = chunkIndex(request);
    const name = request
      .postDataBuffer()
      ?.toString('latin1')
      .match(/name="name"\r\n\r\n([^\r]*)/);
    if (index !== undefined) sent.push(`${name?.[1] ?? '?'}#${index}`);
  });
  const fake = testInfo.outputPath('fake.pdf');
  writeTextFile(fake, 11 * MiB, 'not a pdf');

  await signInAdmin(page, atrium, '/data/file_manager?library=file');
  const input = page.locator('.atrium-upload input[type="file"]');
  // Each language at one width (zh-CN at 1280, en at 375: both widths, both languages' texts);
  // with SCREENSHOTS=1, both languages at both widths, to be looked at.
  const views = SHOTS
    ? ([
        ['zh-CN', 1280],
        ['zh-CN', 375],
        ['en', 1280],
        ['en', 375],
      ] as const)
    : ([
        ['zh-CN', 1280],
        ['en', 375],
      ] as const);
  for (const [lang, width] of views) {
    await page.evaluate((value) => localStorage.setItem('atrium.lang', value), lang);
    await page.setViewportSize({ width, height: width > 800 ? 800 : 812 });
    await page.reload();
    const w = words[lang];
    const grid = page.locator('.atrium-fp-grid');
    const area = page.locator('.atrium-upload');
    await expect(grid).toBeVisible();
    // The grid's distance below the upload area: what the page lays out above both (still
    // loading when the grid first shows) moves them alike.
    const below = async () =>
      ((await grid.boundingBox())?.y ?? 0) - ((await area.boundingBox())?.y ?? 0);
    // Measured once the two stand still (the same distance across two frames): runs on a loaded
    // machine measured while the page was still being laid out and saw the grid "move" 74 px
    // with the area holding only its summary line, before the gap and after the batch came.
    const steady = async () => {
      let last = await below();
      await expect
        .poll(async () => {
          const before = last;
          await painted(page);
          last = await below();
          return last === before;
        })
        .toBe(true);
      return last;
    };
    await expect(area).toBeVisible();
    const gap = await steady();

    // 18 files: one line sums them up; the grid moves down by that line alone.
    const batch = Array.from({ length: 18 }, (_, i) => ({
      name: `batch-${lang}-${width}-${String(i + 1).padStart(2, '0')}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`file ${i} of ${lang} at ${width}\n`.repeat(20 + i)),
    }));
    holding = true;
    await input.setInputFiles(batch);
    const summary = page.getByRole('button', { name: w.summary });
    await expect(summary).toBeVisible();
    await expect(summary).toHaveAttribute('aria-expanded', 'false');
    const moved = (await steady()) - gap;
    // What the upload area held when it did not fit (runs measuring from the page's top once saw
    // 74 px, the area holding only its summary line).
    const held = moved > 48 ? await area.innerText() : '';
    expect(moved, `the upload area held: ${held}`).toBeLessThanOrEqual(48);
    await shoot(page, `queue-${lang}-${width}`);
    // Opened by keyboard: the rows scroll in a box of their own.
    await summary.focus();
    await page.keyboard.press('Enter');
    const rows = page.locator('.atrium-upload-queue');
    await expect(rows).toBeVisible();
    expect((await rows.boundingBox())?.height ?? 0).toBeLessThanOrEqual(220);
    await shoot(page, `queue-open-${lang}-${width}`);
    await page.keyboard.press('Enter');
    await expect(rows).toBeHidden();
    holding = false;
    await expect(page.getByRole('button', { name: w.finished })).toBeVisible({ timeout: 60_000 });

    // 11 MB of text named .pdf: refused on its first chunk, for good.
    sent.length = 0;
    await input.setInputFiles(fake);
    const status = page.locator(
      '.atrium-upload-queue li[data-phase="error"] .atrium-upload-status',
    );
    // Folded or not, a failed file keeps its row in view.
    await expect(status).toBeVisible();
    await expect(status).toHaveText(w.mismatch);
    await expect(status.getByRole('button', { name: w.retry })).toHaveCount(0);
    expect(sent).toEqual(['fake.pdf#0']);
    await shoot(page, `mismatch-${lang}-${width}`);

    // Two uploads another page left unfinished (as a reload leaves them) are listed by name.
    await page.evaluate(() => {
      const left = (name: string, lastModified: number) => ({
        name,
        size: 4096,
        lastModified,
        category: 'file',
        url: '/admin/data/file_manager',
        page: 'reloaded',
      });
      localStorage.setItem(
        'atrium.uploads.unfinished',
        JSON.stringify([left('draft-one.txt', 1), left('draft-two.txt', 2)]),
      );
    });
    await page.reload();
    const notice = page.locator('.atrium-upload-interrupted');
    await expect(notice).toContainText(w.interrupted);
    await expect(notice.getByRole('listitem')).toHaveText(['draft-one.txt', 'draft-two.txt']);
    await shoot(page, `interrupted-${lang}-${width}`);
    await notice.getByRole('button', { name: w.dismiss }).click();
    await expect(notice).toHaveCount(0);
  }
});

/** With SCREENSHOTS=1, the screen as it is judged (/work/screens/files-upload/), to be looked at. */
async function shoot(page: Page, name: string): Promise<void> {
  await snap(page, name);
}
