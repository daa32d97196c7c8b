import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installMatchMedia, installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { startFileManagerTestServer, type FileManagerTestServer } from './file-manager-test-server';

type ServerOptions = Parameters<typeof startFileManagerTestServer>[0];

/** A file for the test server: its type is the name's extension, its path under /data/files. */
export function testFile(
  id: number,
  name: string,
  more: { categoryId?: number; size?: number } = {},
) {
  return {
    id,
    categoryId: more.categoryId ?? 0,
    name,
    type: name.split('.').at(-1) ?? '',
    size: more.size ?? 10,
    path: `/data/files/${name}`,
  };
}

/**
 * The setup every test of the picker and its fields shares: the browser APIs antd wants, one
 * test server for the file, emptied and filled by `seed` before each test at a 1280 px window,
 * and the page cleaned after each. Returns the server (read it inside a test).
 */
export function setUpFileManagerTestServer(
  seed: (server: FileManagerTestServer) => void,
  options?: ServerOptions,
): () => FileManagerTestServer {
  let server: FileManagerTestServer | undefined;
  // antd is slow in a test DOM, more so on a busy machine: give each step room rather than flake.
  vi.setConfig({ testTimeout: 60_000 });
  beforeAll(async () => {
    installMatchMedia();
    installResizeObserver();
    server = await startFileManagerTestServer(options);
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    const current = get();
    setWindowWidth(1280);
    current.calls.length = 0;
    current.files.length = 0;
    current.categories.length = 0;
    seed(current);
  });
  afterEach(cleanup);
  function get(): FileManagerTestServer {
    if (!server) throw new Error('the test server has not started');
    return server;
  }
  return get;
}

/** A user that types without delays. */
export const testUser = () => userEvent.setup({ delay: null });

/** A button's name as antd renders it: a space between two Chinese characters ("确 定"). */
export const antdLabel = (text: string) =>
  new RegExp(`${[...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`);

/** The open dialog titled `title`. */
export async function dialogTitled(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, {
    selector: '.ant-modal-title, .ant-modal-title *',
  });
  const box = heading.closest('.ant-modal');
  if (!(box instanceof HTMLElement)) throw new Error(`no dialog ${title}`);
  return box;
}

/** The open dialog asking `question` (one answered before may linger, closing). */
export async function dialogAsking(question: string): Promise<HTMLElement> {
  const open = (await screen.findAllByText(question)).filter(
    (text) => !text.closest('.ant-modal-wrap[style*="display: none"], [class*="-leave"]'),
  );
  const box = open.at(-1)?.closest('.ant-modal');
  if (!(box instanceof HTMLElement)) throw new Error(`no dialog asking ${question}`);
  return box;
}

/** Opens the antd select `combobox` and picks the option titled `option`. */
export async function chooseOption(
  user: ReturnType<typeof testUser>,
  combobox: HTMLElement,
  option: string,
): Promise<void> {
  await user.click(combobox);
  const item = (await screen.findAllByTitle(option)).find((el) => el.closest('.ant-select-item'));
  if (!item) throw new Error(`no option ${option}`);
  await user.click(item);
}

/** The element `selector` finds in the page; fails the test when there is none. */
export function part(selector: string): HTMLElement {
  const found = document.body.querySelector(selector);
  if (!(found instanceof HTMLElement)) throw new Error(`no ${selector}`);
  return found;
}
