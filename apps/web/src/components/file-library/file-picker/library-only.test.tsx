// @vitest-environment happy-dom
// (antd's thousands of style rules make every style lookup of jsdom slow)
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { tFiles } from '@/components/file-library/i18n';
import { installMatchMedia, installResizeObserver, setWindowWidth } from '@/test-utils/media';
import {
  startFileManagerTestServer,
  type FileManagerTestServer,
} from '@/components/file-library/testing/file-manager-test-server';
import { renderWithFreshCache } from '@/test-utils/render';
import { FilePicker } from './file-picker';

/**
 * Issue 28, point 9: a caller that can use only the member's own files (chat images and
 * documents) gets a picker without the "Custom Link" tab that could never work there.
 */

let server: FileManagerTestServer;
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  installMatchMedia();
  installResizeObserver();
  server = await startFileManagerTestServer();
  server.files.push({
    id: 1,
    categoryId: 0,
    name: 'a.pdf',
    type: 'pdf',
    size: 10,
    path: '/data/files/a.pdf',
  });
});
afterAll(() => server.close());
afterEach(cleanup);

describe('FilePicker libraryOnly', () => {
  it('offers the library and nothing else to type', async () => {
    setWindowWidth(1280);
    renderWithFreshCache(
      <FilePicker url={server.url} category="file" open libraryOnly onConfirm={() => undefined} />,
    );
    expect(await screen.findByRole('checkbox', { name: 'a.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: tFiles('files.customLink') })).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByLabelText(tFiles('files.url'))).toBeNull();
    cleanup();
    // Every other caller keeps both tabs.
    renderWithFreshCache(
      <FilePicker url={server.url} category="file" open onConfirm={() => undefined} />,
    );
    expect(
      await screen.findByRole('tab', { name: tFiles('files.customLink') }),
    ).toBeInTheDocument();
  });
});
