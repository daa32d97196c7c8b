import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tFiles } from '@/components/file-library/i18n';
import { installMatchMedia, installResizeObserver } from '@/test-utils/media';
import {
  startFileManagerTestServer,
  type FileManagerTestServer,
} from '@/components/file-library/testing/file-manager-test-server';
import { renderWithFreshCache } from '@/test-utils/render';
import { UploadButton } from './upload-button';
import type { UploadResult } from './upload-engine';

let server: FileManagerTestServer;
vi.setConfig({ testTimeout: 60_000 });
const storageKey = 'atrium.uploads.unfinished';

beforeAll(async () => {
  installMatchMedia();
  installResizeObserver();
  server = await startFileManagerTestServer({ chunkSize: 64 * 1024 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.calls.length = 0;
  server.files.length = 0;
  localStorage.removeItem(storageKey);
});
afterEach(cleanup);

function fileOf(name: string, size: number, seed: number, lastModified = 1_700_000_000_000) {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * seed + (i >> 8)) & 0xff;
  return new File([out], name, { type: 'application/octet-stream', lastModified });
}

function setup() {
  const uploaded: UploadResult[] = [];
  const view = renderWithFreshCache(
    <UploadButton url={server.url} category="file" onUploaded={(r) => uploaded.push(r)} />,
  );
  const input = view.container.querySelector('input[type="file"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
  const user = userEvent.setup({ applyAccept: false });
  return { ...view, uploaded, user, pick: (...files: File[]) => user.upload(input, files) };
}

/** The rows the summary opens and closes. */
function queue(): HTMLElement {
  const summary = screen.getByRole('button', { name: /^(上传中|已上传) / });
  const list = document.getElementById(summary.getAttribute('aria-controls') ?? '');
  if (!list) throw new Error('the summary controls no list');
  return list;
}

describe('the upload queue (issue 28)', () => {
  it('folds a batch beyond three files into one line that opens and closes by keyboard', async () => {
    server.holdChunks(400);
    try {
      const { pick, uploaded, user } = setup();
      const files = Array.from({ length: 6 }, (_, i) => fileOf(`batch-${i}.bin`, 1000, i + 3));
      await pick(...files);
      const summary = await screen.findByRole('button', { name: /^上传中 \d\/6 · \d+%$/ });
      expect(summary).toHaveAttribute('aria-expanded', 'false');
      expect(queue()).not.toBeVisible();
      // One bar for the batch stands in for the six.
      expect(screen.getByRole('progressbar', { name: tFiles('files.queueLabel') })).toBeVisible();

      summary.focus();
      await user.keyboard('{Enter}');
      expect(summary).toHaveAttribute('aria-expanded', 'true');
      expect(queue()).toBeVisible();
      expect(within(queue()).getAllByRole('listitem').length).toBeGreaterThan(3);
      // Open, the rows scroll in their own box, which the keyboard can reach.
      expect(queue()).toHaveAttribute('tabindex', '0');
      await user.keyboard(' ');
      expect(summary).toHaveAttribute('aria-expanded', 'false');

      await waitFor(() => expect(uploaded).toHaveLength(6), { timeout: 20_000 });
      expect(await screen.findByRole('button', { name: '已上传 6/6' })).toBeInTheDocument();
    } finally {
      server.holdChunks(0);
    }
  });

  it('shows up to three files as rows, a single one without a summary', async () => {
    server.holdChunks(300);
    try {
      const { pick } = setup();
      await pick(fileOf('one.bin', 1000, 5));
      expect(await screen.findByRole('progressbar', { name: 'one.bin' })).toBeVisible();
      expect(screen.queryByRole('button', { name: /上传中/ })).toBeNull();
      await pick(fileOf('two.bin', 1000, 6), fileOf('three.bin', 1000, 7));
      const summary = await screen.findByRole('button', { name: /^上传中 \d\/3 · \d+%$/ });
      expect(summary).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByRole('progressbar', { name: 'three.bin' })).toBeVisible();
    } finally {
      server.holdChunks(0);
    }
  });
});

describe('interrupted uploads (issue 28)', () => {
  const interrupted = [
    { name: 'a.bin', size: 3000, lastModified: 11, category: 'file', page: 'gone' },
    { name: 'b.bin', size: 3000, lastModified: 12, category: 'file', page: 'gone' },
    { name: 'c.bin', size: 3000, lastModified: 13, category: 'file', page: 'gone' },
    // Another library's is not this button's to list.
    { name: 'd.jpg', size: 3000, lastModified: 14, category: 'image', page: 'gone' },
  ];
  const seed = () =>
    localStorage.setItem(
      storageKey,
      JSON.stringify(interrupted.map((entry) => ({ ...entry, url: server.url }))),
    );

  it('lists what a reloaded page left unfinished; choosing a file again resumes it and takes it off', async () => {
    seed();
    const { pick, uploaded } = setup();
    expect(await screen.findByText('3 个上传被中断：重新选择这些文件即可继续')).toBeInTheDocument();
    const names = screen.getByRole('list', { name: tFiles('files.interruptedList') });
    expect(
      within(names)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['a.bin', 'b.bin', 'c.bin']);

    await pick(fileOf('b.bin', 3000, 9, 12));
    expect(await screen.findByText('2 个上传被中断：重新选择这些文件即可继续')).toBeInTheDocument();
    await waitFor(() => expect(uploaded).toHaveLength(1), { timeout: 15_000 });
    // Finished: the browser no longer keeps it; the others wait.
    const kept = JSON.parse(localStorage.getItem(storageKey) ?? '[]') as { name: string }[];
    expect(kept.map((e) => e.name).sort()).toEqual(['a.bin', 'c.bin', 'd.jpg']);
  });

  it('keeps name, size, date and library of an upload under way (never its bytes) and forgets it when removed', async () => {
    server.holdChunks(3000);
    try {
      const { pick, user } = setup();
      await pick(fileOf('under-way.bin', 2000, 4, 77));
      await waitFor(() => expect(server.chunksInFlight()).toBe(1));
      const kept = JSON.parse(localStorage.getItem(storageKey) ?? '[]') as Record<
        string,
        unknown
      >[];
      expect(kept).toEqual([
        expect.objectContaining({
          name: 'under-way.bin',
          size: 2000,
          lastModified: 77,
          category: 'file',
          url: server.url,
        }),
      ]);
      expect(Object.keys(kept[0] ?? {}).sort()).toEqual([
        'category',
        'lastModified',
        'name',
        'page',
        'size',
        'url',
      ]);
      await user.click(screen.getByRole('button', { name: tFiles('files.remove') }));
      expect(localStorage.getItem(storageKey)).toBeNull();
    } finally {
      server.holdChunks(0);
    }
  });

  it('can be dismissed, and says it once for a page with two buttons of the library', async () => {
    seed();
    const { user } = setup();
    renderWithFreshCache(<UploadButton url={server.url} category="file" />);
    expect(await screen.findAllByText('3 个上传被中断：重新选择这些文件即可继续')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: tFiles('files.interruptedDismiss') }));
    expect(screen.queryByText(/个上传被中断/)).toBeNull();
    const kept = JSON.parse(localStorage.getItem(storageKey) ?? '[]') as { name: string }[];
    expect(kept.map((e) => e.name)).toEqual(['d.jpg']);
  });
});
