import { writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { Locator, Page, Request } from '@playwright/test';
import type { Envelope } from '@atrium/shared';
import type { AtriumServer } from './fixtures';

/**
 * Signs in as the first admin and opens `path` ("/data/..."). The sign-in goes through the login
 * call, as the login page makes it (XSRF echoed, the token kept in the admin's cookie), not
 * through the page itself: admin-login.e2e.ts and the other sign-in specs drive the page; here it
 * would only load the app once more.
 */
export async function signInAdmin(page: Page, atrium: AtriumServer, path: string): Promise<void> {
  const xsrf = 'e2e-sign-in';
  await page.context().addCookies([{ name: 'XSRF-TOKEN', value: xsrf, url: atrium.url }]);
  const answer = await page.request.post(`${atrium.adminUrl}api/auth/login`, {
    headers: { 'is-ajax': 'true', 'X-XSRF-TOKEN': xsrf },
    data: { username: 'admin', password: atrium.adminPassword },
  });
  const login = (await answer.json()) as Envelope<{ token: string }>;
  if (login.code !== 0) throw new Error(`admin sign-in refused: ${login.msg}`);
  await page
    .context()
    .addCookies([{ name: 'admin-api-token', value: login.data.token, url: atrium.url }]);
  await page.goto(`${atrium.adminUrl}#${path}`);
  await page.waitForURL((url) => url.hash === `#${path}`);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real PNG of one colour, so the server's content check and thumbnailer accept it. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A text file of `bytes` bytes (valid UTF-8, as the server checks .txt content). */
export function writeTextFile(path: string, bytes: number, seed: string): void {
  const line = `${seed} the quick brown fox jumps over the lazy dog 0123456789\n`;
  const block = line.repeat(Math.ceil((1024 * 1024) / line.length));
  const parts: string[] = [];
  let left = bytes;
  while (left > 0) {
    const piece = block.slice(0, Math.min(left, block.length));
    parts.push(piece);
    left -= piece.length;
  }
  writeFileSync(path, parts.join(''));
}

/** The chunk index of an upload request, or undefined when it is not a chunk. */
export function chunkIndex(request: Request): number | undefined {
  if (
    request.method() !== 'POST' ||
    // Either area: /admin/data/file_manager/… or /member_data/file_manager/…
    !/data\/file_manager\/[a-z]+$/.test(new URL(request.url()).pathname)
  )
    return undefined;
  if (!(request.headers()['content-type'] ?? '').startsWith('multipart/form-data'))
    return undefined;
  const body = request.postDataBuffer();
  if (!body) return undefined;
  // Only the head of the body is text: the fields come before the file part.
  const match = /name="chunk"\r\n\r\n(\d+)\r\n/.exec(body.subarray(0, 4096).toString('latin1'));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The action of a file library request, sent as JSON or (ModStart's jQuery) as a form. */
export function actionOf(request: Request): string | undefined {
  // Both areas: /admin/data/file_manager/… and /member_data/file_manager/….
  if (request.method() !== 'POST' || !request.url().includes('data/file_manager/'))
    return undefined;
  const type = request.headers()['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(request.postData() ?? '').get('action') ?? undefined;
  }
  if (!type.startsWith('application/json')) return undefined;
  try {
    const body = JSON.parse(request.postData() ?? '{}') as { action?: unknown };
    return typeof body.action === 'string' ? body.action : undefined;
  } catch {
    return undefined;
  }
}

/** antd spaces two-character Chinese button labels ("删 除"). */
export function buttonName(text: string, { whole = false } = {}): RegExp {
  const letters = [...text].join('\\s*');
  // Whole: the name ends with the text, after its icon's label if any ("save 保存", not "保存分享设置").
  return new RegExp(whole ? `(?:^|\\s)${letters}$` : letters);
}

/**
 * The alert the page shows (an antd Alert). The screen readers' live regions (lib/announce.ts)
 * carry no role, so they are never among them.
 */
export function shownAlert(page: Page): Locator {
  return page.getByRole('alert');
}
