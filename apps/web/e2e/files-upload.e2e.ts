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
  for (let i = 0; i < 1200 && finished.length < 2; i++) {
    await readStatus();
    await page.waitForTimeout(50);
  }
  expect(finished.length).toBeGreaterThanOrEqual(2);
  await page.reload();
  await expect(upload).toBeVisible();
  const firstInit = initAnswers.at(0);
  expect(firstInit?.chunkUploaded).toBe(0);

  // Second attempt: init says what the server holds; only the rest is sent.
  const sentBefore = sent.length;
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  await expect(row).toContainText('big-report.txt');
  for (
    let i = 0;
    i < 400 && !(await page.getByRole('checkbox', { name: 'big-report.txt' }).isVisible());
    i++
  ) {
    await readStatus();
    await page.waitForTimeout(50);
  }
  await expect(page.getByRole('checkbox', { name: 'big-report.txt' })).toBeVisible();
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

  // Third attempt: the same content again sends no chunk at all.
  const sentBeforeAgain = sent.length;
  await page.locator('.atrium-upload input[type="file"]').setInputFiles(file);
  await expect(page.getByRole('checkbox', { name: 'big-report.txt' })).toHaveCount(2);
  expect(initAnswers.at(2)?.path).toBeTruthy();
  expect(sent.length).toBe(sentBeforeAgain);
});
