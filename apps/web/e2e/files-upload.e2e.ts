import { test, expect } from './fixtures';
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
  const initAnswers: { chunkUploaded: number; path?: string }[] = [];
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
    const body = (await response.json()) as { data: { chunkUploaded: number; path?: string } };
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
  await expect.poll(() => finished.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.reload();
  await expect(upload).toBeVisible();
  const firstInit = initAnswers.at(0);
  expect(firstInit?.chunkUploaded).toBe(0);

  // Second attempt: init says what the server holds; only the rest is sent.
  const sentBefore = sent.length;
  const seen = new Set<string>();
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  await expect(row).toContainText('big-report.txt');
  for (
    let i = 0;
    i < 400 && !(await page.getByRole('checkbox', { name: 'big-report.txt' }).isVisible());
    i++
  ) {
    const status = await row
      .locator('.atrium-upload-status')
      .textContent()
      .catch(() => null);
    if (status) seen.add(status);
    await page.waitForTimeout(50);
  }
  await expect(page.getByRole('checkbox', { name: 'big-report.txt' })).toBeVisible();
  const resumedFrom = initAnswers.at(1)?.chunkUploaded ?? -1;
  expect(resumedFrom).toBeGreaterThanOrEqual(2);
  const sentAfter = sent.slice(sentBefore);
  testInfo.annotations.push({
    type: 'resume',
    description: `init answered ${resumedFrom}; sent chunks ${sentAfter.join(',')}`,
  });
  expect(sentAfter).toEqual(
    Array.from({ length: chunks - resumedFrom }, (_, i) => resumedFrom + i),
  );
  // The queue showed its progress while uploading, in steps.
  const uploading = [...seen].filter((s) => /^上传中 \d+%$/.test(s));
  expect(uploading.length).toBeGreaterThanOrEqual(2);
  // ...and fades out once done.
  await expect(row).toHaveCount(0);

  // Third attempt: the same content again sends no chunk at all.
  const sentBeforeAgain = sent.length;
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  await expect(page.getByRole('checkbox', { name: 'big-report.txt' })).toHaveCount(2);
  expect(initAnswers.at(2)?.path).toBeTruthy();
  expect(sent.length).toBe(sentBeforeAgain);
});
