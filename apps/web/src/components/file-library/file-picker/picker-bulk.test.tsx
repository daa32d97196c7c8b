// @vitest-environment happy-dom
// (antd's thousands of style rules make every style lookup of jsdom slow: 75 s here against 20 s)
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tFiles, type FilesKey } from '@/components/file-library/i18n';
import { installMatchMedia, installResizeObserver, setWindowWidth } from '@/test-utils/media';
import {
  startFileManagerTestServer,
  type FileManagerTestServer,
} from '@/components/file-library/testing/file-manager-test-server';
import { renderWithFreshCache as renderWithProviders } from '@/test-utils/render';
import { FilePicker, type FilePickerProps } from './file-picker';

let server: FileManagerTestServer;
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  installMatchMedia();
  installResizeObserver();
  server = await startFileManagerTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  setWindowWidth(1280);
  server.calls.length = 0;
  server.files.length = 0;
  server.categories.length = 0;
  server.categories.push({ id: 102, pid: 0, name: 'Work' });
  const files: [name: string, size: number][] = [
    ['b.jpg', 30],
    ['a.png', 10],
    ['d.webp', 20],
    ['c.png', 40],
  ];
  files.forEach(([name, size], i) =>
    server.files.push({
      id: i + 1,
      categoryId: 0,
      name,
      type: name.split('.')[1] ?? '',
      size,
      path: `/data/files/${name}`,
    }),
  );
});
afterEach(cleanup);

const uploadConfig = {
  chunkSize: 1024,
  category: { image: { extensions: ['png', 'jpg', 'webp'], maxSize: 1_000_000 } },
};

function setup(props: Partial<FilePickerProps> = {}) {
  const view = renderWithProviders(
    <FilePicker
      url={server.url}
      category="image"
      open
      onClose={() => undefined}
      onConfirm={() => undefined}
      uploadConfig={uploadConfig}
      {...props}
    />,
  );
  return { ...view, user: userEvent.setup({ delay: null }) };
}

const card = (name: string) => screen.findByRole('checkbox', { name });
/** The tiles' names, in the order shown. */
const shown = () =>
  Array.from(document.querySelectorAll('.atrium-fp-tiles [role="checkbox"]')).map((tile) =>
    tile.getAttribute('aria-label'),
  );
const label = (text: string) =>
  new RegExp(`${[...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`);
const toolbarButton = (key: FilesKey) => {
  const actions = document.body.querySelector('.atrium-fp-actions');
  if (!(actions instanceof HTMLElement)) throw new Error('no toolbar');
  return within(actions).getByRole('button', { name: label(tFiles(key)) });
};
const lastList = () => server.callsOf('list').at(-1)?.body;

/** Opens the select labelled `key` and picks the option titled `option`. */
async function choose(user: ReturnType<typeof userEvent.setup>, key: FilesKey, option: string) {
  await user.click(screen.getByRole('combobox', { name: tFiles(key) }));
  const item = (await screen.findAllByTitle(option)).find((el) => el.closest('.ant-select-item'));
  if (!item) throw new Error(`no option ${option}`);
  await user.click(item);
}

/** Unfolds the secondary filters behind the toolbar's one "Filters" button (issue 28). */
async function openFilters(user: ReturnType<typeof userEvent.setup>) {
  const toggle = screen.getByRole('button', { name: label(tFiles('files.filters')) });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(screen.queryByRole('combobox', { name: tFiles('files.sortBy') })).toBeNull();
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

describe('picker: sort, filters and select all (issue 17)', () => {
  it('sorts by name, size and date both ways, asking the server from page 1', async () => {
    const { user } = setup({ max: 10 });
    await card('c.png');
    expect(shown()).toEqual(['c.png', 'd.webp', 'a.png', 'b.jpg']);
    expect(lastList()).not.toHaveProperty('sort');

    await openFilters(user);
    await choose(user, 'files.sortBy', tFiles('files.sortNameAsc'));
    await waitFor(() => expect(shown()).toEqual(['a.png', 'b.jpg', 'c.png', 'd.webp']));
    expect(lastList()).toMatchObject({ page: 1, sort: 'name', order: 'asc' });

    await choose(user, 'files.sortBy', tFiles('files.sortSizeDesc'));
    await waitFor(() => expect(shown()).toEqual(['c.png', 'b.jpg', 'd.webp', 'a.png']));
    expect(lastList()).toMatchObject({ sort: 'size', order: 'desc' });

    await choose(user, 'files.sortBy', tFiles('files.sortOldest'));
    await waitFor(() => expect(shown()).toEqual(['b.jpg', 'a.png', 'd.webp', 'c.png']));
    expect(lastList()).toMatchObject({ sort: 'date', order: 'asc' });

    // Newest first is the plain list again: no sort field at all.
    await choose(user, 'files.sortBy', tFiles('files.sortNewest'));
    await waitFor(() => expect(shown()).toEqual(['c.png', 'd.webp', 'a.png', 'b.jpg']));
    await waitFor(() => expect(lastList()).not.toHaveProperty('sort'));
  });

  it('filters by the library’s types and by upload date, in Chinese', async () => {
    const { user } = setup({ max: 10 });
    await card('c.png');
    await openFilters(user);
    expect(screen.getByTitle(tFiles('files.filters'))).toBeInTheDocument();
    await choose(user, 'files.types', 'PNG');
    await waitFor(() => expect(shown()).toEqual(['c.png', 'a.png']));
    // The button counts the filters on, folded or not.
    expect(screen.getByTitle(tFiles('files.filtersActive', { n: 1 }))).toBeInTheDocument();
    expect(lastList()).toMatchObject({ page: 1, types: ['png'] });
    await choose(user, 'files.types', 'JPG');
    await waitFor(() => expect(shown()).toEqual(['c.png', 'a.png', 'b.jpg']));
    expect(lastList()).toMatchObject({ types: ['png', 'jpg'] });

    // The range's boxes speak the interface's language.
    const from = screen.getByPlaceholderText(tFiles('files.dateFrom'));
    expect(screen.getByPlaceholderText(tFiles('files.dateTo'))).toBeInTheDocument();
    expect(tFiles('files.dateFrom')).toBe('上传日期起');
    const to = screen.getByPlaceholderText(tFiles('files.dateTo'));
    await user.click(from);
    await user.type(from, '2026-03-04{Enter}');
    await user.type(to, '2026-03-05{Enter}');
    await waitFor(() => expect(lastList()).toHaveProperty('from'));
    expect(lastList()?.from).toBe(new Date(2026, 2, 4).getTime());
    expect(lastList()?.to).toBe(new Date(2026, 2, 6).getTime() - 1);
    expect(lastList()).toMatchObject({ types: ['png', 'jpg'], page: 1 });
    expect(screen.getByTitle(tFiles('files.filtersActive', { n: 2 }))).toBeInTheDocument();
  });

  it('"select all on this page" checks every tile and feeds bulk delete and move', async () => {
    const { user } = setup({ max: 10 });
    const all = await screen.findByRole('checkbox', { name: tFiles('files.selectPage') });
    await card('c.png');
    await user.click(await card('a.png'));
    expect(all).toHaveProperty('indeterminate', true);
    await user.click(all);
    for (const name of ['a.png', 'b.jpg', 'c.png', 'd.webp'])
      expect(await card(name)).toHaveAttribute('aria-checked', 'true');
    expect(all).toBeChecked();
    expect(screen.getByText(tFiles('files.checked', { n: 4 }))).toBeInTheDocument();

    // Move: every checked file goes, in the order they were checked.
    await user.click(toolbarButton('files.edit'));
    const heading = await screen.findByText(tFiles('files.editFile'), {
      selector: '.ant-modal-title, .ant-modal-title *',
    });
    const dialog = heading.closest('.ant-modal');
    if (!(dialog instanceof HTMLElement)) throw new Error('no dialog');
    await user.click(within(dialog).getByRole('combobox'));
    const work = (await screen.findAllByTitle('Work')).find((el) => el.closest('.ant-select-item'));
    if (!work) throw new Error('no Work option');
    await user.click(work);
    await user.click(within(dialog).getByRole('button', { name: label(tFiles('files.confirm')) }));
    await waitFor(() =>
      expect(server.callsOf('fileEdit')[0]?.body).toMatchObject({
        id: '2,4,3,1',
        categoryId: 102,
      }),
    );

    // After the reload the selection is empty; select all again, unselect it, then delete.
    const again = await screen.findByRole('checkbox', { name: tFiles('files.selectPage') });
    await waitFor(() => expect(again).not.toBeChecked());
    await user.click(again);
    await user.click(again);
    expect(await card('a.png')).toHaveAttribute('aria-checked', 'false');
    expect(toolbarButton('files.delete')).toBeDisabled();
    await user.click(again);
    await user.click(toolbarButton('files.delete'));
    const question = (
      await screen.findAllByText(tFiles('files.confirmDeleteToTrash', { n: 4, days: 30 }))
    )
      .at(-1)
      ?.closest('.ant-modal');
    if (!(question instanceof HTMLElement)) throw new Error('no question');
    await user.click(within(question).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() =>
      expect(server.callsOf('fileDelete')[0]?.body).toMatchObject({ id: '4,3,2,1' }),
    );
  });

  it('refuses a page that does not fit under max, and is not offered with max 1', async () => {
    const { user, unmount } = setup({ max: 3 });
    await card('c.png');
    await user.click(screen.getByRole('checkbox', { name: tFiles('files.selectPage') }));
    expect(await screen.findByText(tFiles('files.selectAtMost', { n: 3 }))).toBeInTheDocument();
    expect(await card('a.png')).toHaveAttribute('aria-checked', 'false');
    unmount();
    setup({ max: 1 });
    await card('c.png');
    expect(screen.queryByRole('checkbox', { name: tFiles('files.selectPage') })).toBeNull();
  });
});
