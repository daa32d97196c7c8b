import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tFiles } from '@/components/file-library/i18n';
import { outageText } from '@/lib/api';
import { useConfigStore } from '@/stores/config-store';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import {
  startFileManagerTestServer,
  type FileManagerTestServer,
} from '@/components/file-library/testing/file-manager-test-server';
import { renderWithFreshCache as renderWithProviders } from '@/test-utils/render';
import { UploadButton, type UploadButtonProps } from './upload-button';
import type { UploadResult } from './upload-engine';

let server: FileManagerTestServer;
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  installMatchMedia();
  installResizeObserver();
  server = await startFileManagerTestServer({ chunkSize: 64 * 1024 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.calls.length = 0;
  server.files.length = 0;
});
afterEach(cleanup);

function bytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * seed + (i >> 8)) & 0xff;
  return out;
}

function fileOf(
  name: string,
  content: Uint8Array<ArrayBuffer>,
  lastModified = 1_700_000_000_000,
): File {
  return new File([content], name, { type: 'application/octet-stream', lastModified });
}

function setup(props: Partial<UploadButtonProps> = {}) {
  const uploaded: UploadResult[] = [];
  const view = renderWithProviders(
    <UploadButton
      url={server.url}
      category="file"
      onUploaded={(r) => uploaded.push(r)}
      {...props}
    />,
  );
  const input = view.container.querySelector('input[type="file"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
  const user = userEvent.setup({ applyAccept: false });
  return { ...view, uploaded, pick: (...files: File[]) => user.upload(input, files), user };
}

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

describe('UploadButton', () => {
  it('is 200 px wide unless told otherwise', () => {
    const { container } = setup();
    expect(container.querySelector('.atrium-upload')).toHaveStyle({ width: '200px' });
  });

  it('hashes, sends every chunk in order and hands the stored file to the page', async () => {
    const content = bytes(200 * 1024, 7);
    const { pick, uploaded } = setup();
    await pick(fileOf('report.bin', content));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    const init = server.callsOf('init');
    expect(init).toHaveLength(1);
    expect(init[0]?.body).toMatchObject({
      name: 'report.bin',
      size: content.length,
      md5: md5(content),
    });
    const chunks = server.callsOf('chunk');
    expect(chunks.map((c) => c.body.chunk)).toEqual(['0', '1', '2', '3']);
    expect(chunks[0]?.body).toMatchObject({
      name: 'report.bin',
      chunks: '4',
      size: String(content.length),
      md5: md5(content),
    });
    expect(uploaded[0]).toMatchObject({
      name: 'report.bin',
      size: content.length,
      path: `/data/files/${md5(content)}.bin`,
    });
    expect(server.callsOf('save')).toHaveLength(0);
    // Done: a full bar under "done", never a bar still catching up.
    const bar = screen.getByRole('progressbar', { name: 'report.bin' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar.querySelector<HTMLElement>('.atrium-upload-bar-fill')?.style.width).toBe('100%');
    expect(screen.getByText(tFiles('files.uploaded'))).toBeInTheDocument();
  });

  it('keeps the bar and the text on the same number while it works', async () => {
    const content = bytes(600 * 1024, 3);
    const { pick } = setup();
    await pick(fileOf('steady.bin', content));
    const seen: [string, string][] = [];
    await waitFor(
      () => {
        const bar = screen.getByRole('progressbar', { name: 'steady.bin' });
        const text = bar.nextElementSibling?.textContent ?? '';
        seen.push([bar.getAttribute('aria-valuenow') ?? '', text]);
        expect(text).toBe(tFiles('files.uploaded'));
      },
      { timeout: 15_000, interval: 5 },
    );
    for (const [value, text] of seen) {
      const percent = /(\d+)%/.exec(text)?.[1];
      if (percent !== undefined) expect(value, text).toBe(percent);
      if (text === tFiles('files.uploaded')) expect(value).toBe('100');
    }
  });

  it('shows the exact message for a file type outside the list and sends nothing', async () => {
    const { pick } = setup();
    await pick(fileOf('virus.exe', bytes(10, 1)));
    expect(
      await screen.findByText('文件类型不合法（只能上传pdf,txt,bin文件）'),
    ).toBeInTheDocument();
    expect(server.callsOf('init')).toHaveLength(0);
  });

  it('shows the exact message for a file over maxSize', async () => {
    const config = { chunkSize: 1024, category: { file: { extensions: ['bin'], maxSize: 100 } } };
    const { pick } = setup({ config });
    await pick(fileOf('big.bin', bytes(101, 1)));
    expect(await screen.findByText('文件大小不合法')).toBeInTheDocument();
    expect(server.callsOf('init')).toHaveLength(0);
    // A page-held configuration means no config call either.
    expect(server.callsOf('config')).toHaveLength(0);
  });

  it('uses SPEC 9 limits when no configuration can be had', async () => {
    server.refuse('config', 'config is broken');
    try {
      const { pick } = setup();
      await pick(fileOf('doc.bin', bytes(10, 1)));
      expect(
        await screen.findByText('文件类型不合法（只能上传gif,jpg,png,jpeg文件）'),
      ).toBeInTheDocument();
    } finally {
      server.refuse('config', undefined);
    }
  });

  it('fetches the configuration once for every button on the page', async () => {
    renderWithProviders(
      <>
        <UploadButton url={server.url} category="file" />
        <UploadButton url={server.url} category="image" />
        <UploadButton url={server.url} category="video" />
      </>,
    );
    await waitFor(() => expect(server.callsOf('config')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(server.callsOf('config')).toHaveLength(1);
  });

  it('does not queue the same file twice', async () => {
    const content = bytes(150 * 1024, 3);
    const file = fileOf('twice.bin', content);
    const { pick, uploaded } = setup();
    await pick(file, file);
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 200));
    expect(server.callsOf('init')).toHaveLength(1);
  });

  it('lets the pre-upload check cancel a file, also asynchronously', async () => {
    const seen: string[] = [];
    const { pick, uploaded } = setup({
      beforeUpload: async (file) => {
        seen.push(file.name);
        return file.name !== 'no.bin';
      },
    });
    await pick(fileOf('no.bin', bytes(10, 2)), fileOf('yes.bin', bytes(10, 3)));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(seen).toEqual(['no.bin', 'yes.bin']);
    expect(server.callsOf('init').map((c) => c.body.name)).toEqual(['yes.bin']);
  });

  it('resumes: chunks below chunkUploaded are not sent again', async () => {
    const content = bytes(300 * 1024, 11);
    const hash = md5(content);
    server.seedChunks(
      { name: 'resume.bin', size: content.length, md5: hash },
      Buffer.from(content),
      3,
    );
    const { pick, uploaded } = setup();
    await pick(fileOf('resume.bin', content));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(server.callsOf('chunk').map((c) => c.body.chunk)).toEqual(['3', '4']);
    expect(uploaded[0]?.path).toBe(`/data/files/${hash}.bin`);
  });

  it('sends no chunk when the same content is already stored', async () => {
    const content = bytes(100 * 1024, 13);
    server.seedStored(Buffer.from(content));
    const { pick, uploaded } = setup();
    await pick(fileOf('again.bin', content));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(server.callsOf('chunk')).toHaveLength(0);
    expect(uploaded[0]?.fullPath).toMatch(/^http:\/\/cdn\.test\/data\/files\//);
  });

  it('retries a failed chunk and goes on', async () => {
    const content = bytes(130 * 1024, 17);
    server.failChunks(2);
    const { pick, uploaded } = setup();
    await pick(fileOf('flaky.bin', content));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    // The three chunks go at once: the first two to arrive failed, and were sent again.
    const sent = server.callsOf('chunk').map((c) => c.body.chunk);
    expect(sent).toHaveLength(5);
    expect(new Set(sent)).toEqual(new Set(['0', '1', '2']));
    expect(uploaded[0]?.path).toBeTruthy();
  });

  it("sends up to the upload setting's number of chunks at once; the answer completing the file ends it", async () => {
    const content = bytes(6 * 64 * 1024 - 100, 29);
    server.overlappedChunks.length = 0;
    server.holdChunks(150);
    const { pick, uploaded } = setup();
    await pick(fileOf('wide.bin', content));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    server.holdChunks(0);
    const sent = server.callsOf('chunk').map((c) => c.body.chunk);
    expect([...sent].sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(server.maxChunksInFlight()).toBe(3);
    // The last chunks overlapped too: nothing waits for the others before the final one goes.
    expect(server.overlappedChunks).toContain('5');
    // Each chunk went once: the answer that completed the file brought its path.
    expect(uploaded[0]?.path).toMatch(/^\/data\/files\//);
  });

  it('uploads by a changed setting once app/config brings its new hash, without a reload', async () => {
    const content = (seed: number) => bytes(5 * 64 * 1024, seed);
    useConfigStore.getState().setHashLazyValue({ Upload: 'v1' });
    server.holdChunks(150);
    try {
      const { pick, uploaded } = setup();
      server.overlappedChunks.length = 0;
      await pick(fileOf('before.bin', content(51)));
      await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
      expect(server.overlappedChunks).not.toHaveLength(0);

      // An admin saves "one chunk at a time"; the page's next app/config refresh brings a new hash.
      server.setParallelChunks(1);
      useConfigStore.getState().setHashLazyValue({ Upload: 'v2' });
      await waitFor(() => expect(server.callsOf('config')).toHaveLength(2));
      server.overlappedChunks.length = 0;
      await pick(fileOf('after.bin', content(53)));
      await waitFor(() => expect(uploaded).toHaveLength(2), { timeout: 15_000 });
      expect(server.overlappedChunks).toEqual([]);
      expect(server.callsOf('config')).toHaveLength(2);
    } finally {
      server.holdChunks(0);
      server.setParallelChunks(3);
      useConfigStore.getState().setHashLazyValue({});
    }
  });

  it('gives up after 5 retries with "Upload Error : Server Error"', async () => {
    server.failChunks(6);
    const { pick, uploaded } = setup();
    await pick(fileOf('down.bin', bytes(10, 19)));
    const text = tFiles('files.uploadError', { error: tFiles('files.serverError') });
    expect(await screen.findAllByText(text, undefined, { timeout: 15_000 })).not.toHaveLength(0);
    expect(server.callsOf('chunk')).toHaveLength(6);
    expect(uploaded).toHaveLength(0);
    // Retry sends it again, and this time the server takes it.
    const retry = new RegExp(`${[...tFiles('files.retry')].join('\\s*')}$`);
    await userEvent.click(screen.getByRole('button', { name: retry }));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: retry })).toBeNull();
  });

  it('starts the whole file again on ShouldRetryUpload', async () => {
    const content = bytes(100 * 1024, 23);
    server.refuseLastChunkOnce();
    const { pick, uploaded } = setup();
    await pick(fileOf('retry.bin', content));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(server.callsOf('init')).toHaveLength(2);
    expect(server.callsOf('chunk').map((c) => c.body.chunk)).toEqual(['0', '1', '0', '1']);
  });

  it('shows the outage on the file while it waits a storage outage out, then finishes', async () => {
    const content = bytes(100 * 1024, 41);
    server.unavailable('chunk', 'storage', 1);
    const { pick, uploaded } = setup();
    await pick(fileOf('outage.bin', content));
    const waiting = tFiles('files.outageRetrying', { reason: outageText('storage') });
    expect(await screen.findByText(waiting, {}, { timeout: 10_000 })).toBeInTheDocument();
    // The server's retry hint (3 s for storage) passes, the chunk goes again: no restart.
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(server.callsOf('init')).toHaveLength(1);
    // Chunks go in parallel: the refused one again, the other once.
    expect(
      server
        .callsOf('chunk')
        .map((c) => c.body.chunk)
        .sort(),
    ).toEqual(['0', '0', '1']);
    expect(screen.queryByText(waiting)).toBeNull();
  });

  it('stops after the first chunk refused for its content, and offers no Retry', async () => {
    const refusal = {
      error: 'files.contentMismatch',
      params: { problem: { key: 'files.contentNotType', params: { ext: 'bin' } } },
    };
    server.refuse('chunk', 'The file does not match its extension', refusal);
    try {
      const { pick, uploaded } = setup();
      await pick(fileOf('fake.bin', bytes(5 * 64 * 1024, 43)));
      // Shown from the catalogue key in the page's language, on the row and in a toast.
      const text = '文件内容与扩展名不符：内容不是 .bin 文件';
      expect(await screen.findAllByText(text, undefined, { timeout: 15_000 })).not.toHaveLength(0);
      // Chunk 0 went alone: nothing else was sent, the file was not started again.
      expect(server.callsOf('chunk').map((c) => c.body.chunk)).toEqual(['0']);
      expect(server.callsOf('init')).toHaveLength(1);
      expect(uploaded).toHaveLength(0);
      const retry = new RegExp(`${[...tFiles('files.retry')].join('\\s*')}$`);
      expect(screen.queryByRole('button', { name: retry })).toBeNull();
    } finally {
      server.refuse('chunk', undefined);
    }
  });

  it('shows the server message when init is refused', async () => {
    server.refuse('init', 'Quota exceeded');
    try {
      const { pick, uploaded } = setup();
      await pick(fileOf('quota.bin', bytes(10, 29)));
      expect(await screen.findAllByText('Quota exceeded')).not.toHaveLength(0);
      expect(server.callsOf('chunk')).toHaveLength(0);
      expect(uploaded).toHaveLength(0);
    } finally {
      server.refuse('init', undefined);
    }
  });

  it('auto-saves into category 0 and hands on the saved file', async () => {
    const { pick, uploaded } = setup({ autoSave: true });
    await pick(fileOf('kept.bin', bytes(1000, 31)));
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(server.callsOf('save')[0]?.body).toMatchObject({
      name: 'kept.bin',
      size: 1000,
      categoryId: 0,
    });
    expect(uploaded[0]?.saved).toMatchObject({ name: 'kept.bin', categoryId: 0 });
  });

  it('says the file is already in the category and hands on the existing one, filing no twin', async () => {
    const file = fileOf('batch-05.bin', bytes(3000, 47));
    const { pick, uploaded } = setup({ autoSave: true });
    await pick(file);
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    expect(screen.queryByText(tFiles('files.alreadyThere'))).toBeNull();
    await pick(fileOf('batch-05.bin', bytes(3000, 47), 1_700_000_000_001));
    await waitFor(() => expect(uploaded).toHaveLength(2), { timeout: 15_000 });
    expect(uploaded[1]?.saved).toMatchObject({ id: uploaded[0]?.saved?.id, existing: true });
    expect(uploaded[1]?.path).toBe(uploaded[0]?.saved?.path);
    expect(server.files).toHaveLength(1);
    const rows = [...document.querySelectorAll('.atrium-upload-queue li')];
    expect(rows.at(-1)?.textContent).toContain(tFiles('files.alreadyThere'));
  });

  it('shows a progress bar per file that fades out after success', async () => {
    const { pick, container, uploaded } = setup();
    await pick(fileOf('fade.bin', bytes(1000, 37)));
    await waitFor(() => expect(container.querySelector('.atrium-upload-queue li')).not.toBeNull());
    expect(screen.getByRole('progressbar', { name: 'fade.bin' })).toBeInTheDocument();
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    await waitFor(() => expect(container.querySelector('.atrium-upload-queue li')).toBeNull(), {
      timeout: 5_000,
    });
  });

  it('removing a file stops its upload', async () => {
    const hashSpy = vi.fn();
    const { pick, container, user, uploaded } = setup({
      autoSave: true,
      beforeUpload: () => (hashSpy(), true),
    });
    // The first chunk (it goes alone) is held on the server, then fails: removing the file while
    // it is held must leave nothing to try again or to save when it answers.
    server.failChunks(3);
    server.holdChunks(5000);
    await pick(fileOf('gone.bin', bytes(100 * 1024, 59)));
    await waitFor(() => expect(server.chunksInFlight()).toBe(1), { timeout: 4_000 });
    await user.click(screen.getByRole('button', { name: tFiles('files.remove') }));
    await waitFor(() => expect(container.querySelector('.atrium-upload-queue li')).toBeNull());
    // The held chunk answers (HTTP 500); the engine's retry pause would pass too.
    await waitFor(() => expect(server.chunksInFlight()).toBe(0), { timeout: 8_000 });
    await new Promise((r) => setTimeout(r, 1000));
    server.holdChunks(0);
    server.failChunks(0);
    expect(uploaded).toHaveLength(0);
    expect(server.callsOf('chunk').map((c) => c.body.chunk)).toEqual(['0']);
    expect(server.callsOf('init')).toHaveLength(1);
    expect(server.callsOf('save')).toHaveLength(0);
    expect(server.files).toHaveLength(0);
    expect(hashSpy).toHaveBeenCalledTimes(1);
  });
});
