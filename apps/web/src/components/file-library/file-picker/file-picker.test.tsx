// @vitest-environment happy-dom
// (antd's thousands of style rules make every style lookup of jsdom slow: 75 s here against 20 s)
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tFiles } from '@/components/file-library/i18n';
import { installMatchMedia, installResizeObserver, setWindowWidth } from '@/test-utils/media';
import {
  startFileManagerTestServer,
  type FileManagerTestServer,
} from '@/components/file-library/testing/file-manager-test-server';
import { renderWithFreshCache as renderWithProviders } from '@/test-utils/render';
import { FilePicker, type FilePickerProps } from './file-picker';
import type { PickedFile } from './selection';

let server: FileManagerTestServer;
// antd is slow in a test DOM, more so on a busy machine: give each step room rather than flake.
vi.setConfig({ testTimeout: 60_000 });

/** The open sub-dialog titled `title`. */
async function dialogTitled(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, {
    selector: '.ant-modal-title, .ant-modal-title *',
  });
  const box = heading.closest('.ant-modal');
  if (!(box instanceof HTMLElement)) throw new Error(`no dialog ${title}`);
  return box;
}

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
  server.categories.push(
    { id: 100, pid: 0, name: 'Holidays' },
    { id: 101, pid: 100, name: 'Beach' },
    { id: 102, pid: 0, name: 'Work' },
  );
  const names = ['a.png', 'b.jpg', 'c.pdf', 'd.webp'];
  names.forEach((name, i) =>
    server.files.push({
      id: i + 1,
      categoryId: i === 2 ? 102 : 0,
      name,
      type: name.split('.')[1] ?? '',
      size: 10,
      path: `/data/files/${name}`,
    }),
  );
});
afterEach(cleanup);

function setup(props: Partial<FilePickerProps> = {}) {
  const picked: PickedFile[][] = [];
  let closed = 0;
  const view = renderWithProviders(
    <FilePicker
      url={server.url}
      category="image"
      open
      onClose={() => closed++}
      onConfirm={(items) => picked.push(items)}
      {...props}
    />,
  );
  return { ...view, picked, closedCount: () => closed, user: userEvent.setup({ delay: null }) };
}

const card = (name: string) => screen.findByRole('checkbox', { name });
/** antd puts a space between two Chinese characters on buttons ("确 定"). */
const label = (text: string) =>
  new RegExp(`${[...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`);
const button = (key: Parameters<typeof tFiles>[0], scope: HTMLElement = document.body) =>
  within(scope).getByRole('button', { name: label(tFiles(key)) });
const findButton = (key: Parameters<typeof tFiles>[0]) =>
  screen.findByRole('button', { name: label(tFiles(key)) });
const confirmButton = () => button('files.confirm');
const toolbar = () => {
  const found = document.body.querySelector('.atrium-fp-actions');
  if (!(found instanceof HTMLElement)) throw new Error('no toolbar');
  return found;
};
/** The open "Confirm Delete ?" dialog, asking `question` (SPEC's words, then what happens). */
async function deleteQuestion(question: string): Promise<HTMLElement> {
  expect(question.startsWith('确认删除？')).toBe(true);
  // A question answered before may linger, closing: the one open is the one to answer.
  const open = (text: HTMLElement) =>
    !text.closest('.ant-modal-wrap[style*="display: none"], [class*="-leave"]');
  const texts = await waitFor(async () => {
    const found = (await screen.findAllByText(question)).filter(open);
    expect(found.length).toBeGreaterThan(0);
    return found;
  });
  const box = texts.at(-1)?.closest('.ant-modal');
  if (!(box instanceof HTMLElement)) throw new Error('no dialog');
  return box;
}

describe('FilePicker', () => {
  it('opens as "Please Select" with both tabs and loads the tree, then page 1', async () => {
    setup();
    expect(await screen.findByText(tFiles('files.pleaseSelect'))).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: tFiles('files.fileGallery') })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: tFiles('files.customLink') })).toBeInTheDocument();
    expect(await screen.findByText('Holidays')).toBeInTheDocument();
    expect(await card('d.webp')).toBeInTheDocument();
    expect(server.callsOf('category')).toHaveLength(1);
    expect(server.callsOf('list')[0]?.body).toMatchObject({ page: 1, categoryId: 0 });
  });

  it('shows thumbnails for images and "<TYPE> File(s)" for the rest, names as plain text', async () => {
    server.files.push({
      id: 9,
      categoryId: 0,
      name: '<b>bold</b>.pdf',
      type: 'pdf',
      size: 1,
      path: '/data/x.pdf',
    });
    const { user } = setup();
    const image = await card('a.png');
    expect(image.querySelector('img')).not.toBeNull();
    const pdf = await card('c.pdf');
    expect(pdf.querySelector('img')).toBeNull();
    expect(within(pdf).getByText(tFiles('files.typeFiles', { type: 'PDF' }))).toBeInTheDocument();
    const tricky = await card('<b>bold</b>.pdf');
    expect(tricky.querySelector('b')).toBeNull();
    // No control inside the tile (issue 29): "open" is in the details of the file chosen.
    expect(within(image).queryByRole('link')).toBeNull();
    await user.click(image);
    const details = document.body.querySelector('.atrium-fp-aside');
    if (!(details instanceof HTMLElement)) throw new Error('no details');
    const open = within(details).getByRole('link', { name: label(tFiles('files.open')) });
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('href', 'http://cdn.test/data/files/a.png');
  });

  it('says "No Records" for an empty category', async () => {
    server.files.length = 0;
    setup();
    expect(await screen.findByText(tFiles('files.noRecords'))).toBeInTheDocument();
  });

  it('with max 1 a second click replaces the first; Confirm hands it back and closes', async () => {
    const { user, picked, closedCount } = setup();
    await user.click(await card('a.png'));
    await user.click(await card('b.jpg'));
    expect(await card('a.png')).toHaveAttribute('aria-checked', 'false');
    expect(await card('b.jpg')).toHaveAttribute('aria-checked', 'true');
    expect(screen.queryByText(tFiles('files.reverseSelectOrder'))).toBeNull();
    await user.click(confirmButton());
    expect(picked).toEqual([
      [
        {
          category: 'image',
          filename: 'b.jpg',
          path: '/data/files/b.jpg',
          fullPath: 'http://cdn.test/data/files/b.jpg',
          type: 'jpg',
        },
      ],
    ]);
    expect(closedCount()).toBe(1);
  });

  it('with max 3 refuses a fourth, and can reverse the order', async () => {
    const { user, picked } = setup({ max: 3 });
    for (const name of ['c.pdf', 'a.png', 'd.webp']) await user.click(await card(name));
    await user.click(await card('b.jpg'));
    expect(await screen.findByText(tFiles('files.selectAtMost', { n: 3 }))).toBeInTheDocument();
    expect(await card('b.jpg')).toHaveAttribute('aria-checked', 'false');
    await user.click(screen.getByRole('checkbox', { name: tFiles('files.reverseSelectOrder') }));
    await user.click(confirmButton());
    expect(picked[0]?.map((p) => p.filename)).toEqual(['d.webp', 'a.png', 'c.pdf']);
  });

  it('needs min items before Confirm', async () => {
    const { user, picked } = setup({ min: 2, max: 5 });
    await user.click(await card('a.png'));
    await user.click(confirmButton());
    expect(await screen.findByText(tFiles('files.selectAtLeast', { n: 2 }))).toBeInTheDocument();
    expect(picked).toHaveLength(0);
  });

  it('takes a typed path on the Custom Link tab', async () => {
    const { user, picked } = setup();
    // The gallery has loaded: nothing is left in flight when the dialog closes.
    await card('a.png');
    await user.click(screen.getByRole('tab', { name: tFiles('files.customLink') }));
    await user.click(confirmButton());
    expect(await screen.findByText(tFiles('files.pleaseInput'))).toBeInTheDocument();
    await user.click(screen.getByLabelText(tFiles('files.url')));
    await user.paste('https://example.com/x.png');
    await user.click(confirmButton());
    expect(picked).toEqual([
      [
        {
          name: '',
          path: 'https://example.com/x.png',
          fullPath: 'https://example.com/x.png',
          type: '',
        },
      ],
    ]);
  });

  it('renders nothing without View', async () => {
    // Another library than the other tests use: a late call of the test before cannot count here.
    const { container } = setup({ category: 'audio', permission: { view: false } });
    await new Promise((r) => setTimeout(r, 100));
    expect(container.querySelector('.atrium-fp')).toBeNull();
    expect(document.body.querySelector('.ant-modal')).toBeNull();
    expect(server.calls.filter((call) => call.category === 'audio')).toHaveLength(0);
  });

  it('hides what the flags do not grant', async () => {
    setup({ permission: { upload: false, addEdit: false, delete: false } });
    await card('a.png');
    expect(screen.queryByRole('button', { name: label(tFiles('files.upload')) })).toBeNull();
    expect(screen.queryByRole('button', { name: tFiles('files.addCategory') })).toBeNull();
    expect(screen.queryByRole('button', { name: tFiles('files.editCategory') })).toBeNull();
    expect(screen.queryByRole('button', { name: tFiles('files.deleteCategory') })).toBeNull();
    expect(
      within(toolbar()).queryByRole('button', { name: label(tFiles('files.delete')) }),
    ).toBeNull();
    expect(
      within(toolbar()).queryByRole('button', { name: label(tFiles('files.edit')) }),
    ).toBeNull();
    expect(button('files.copyLink', toolbar())).toBeInTheDocument();
  });

  it('shows the upload button with Upload', async () => {
    setup();
    expect(await findButton('files.upload')).toBeInTheDocument();
  });

  it('enables Edit/Delete Category only for a category above 0 and lists the chosen one', async () => {
    const { user } = setup();
    await card('a.png');
    expect(screen.getByRole('button', { name: tFiles('files.editCategory') })).toBeDisabled();
    expect(screen.getByRole('button', { name: tFiles('files.deleteCategory') })).toBeDisabled();
    await user.click(await screen.findByText('Work'));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: tFiles('files.editCategory') })).toBeEnabled(),
    );
    expect(screen.getByRole('button', { name: tFiles('files.deleteCategory') })).toBeEnabled();
    // Some list call asks for the category (a refetch of the root under load may come after it);
    // what the user sees decides: the category's files only.
    await waitFor(() =>
      expect(server.callsOf('list').map((c) => c.body)).toContainEqual(
        expect.objectContaining({ page: 1, categoryId: 102 }),
      ),
    );
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'a.png' })).toBeNull());
    expect(await card('c.pdf')).toBeInTheDocument();
  });

  it('adds a sub-category under the current one, then goes back to the root with a fresh tree', async () => {
    const { user } = setup();
    await user.click(await screen.findByText('Holidays'));
    await user.click(screen.getByRole('button', { name: tFiles('files.addCategory') }));
    const dialog = await dialogTitled(tFiles('files.addCategory'));
    await user.click(within(dialog).getByLabelText(tFiles('files.name')));
    await user.paste('Mountains');
    await user.click(button('files.confirm', dialog));
    await waitFor(() => expect(server.callsOf('categoryEdit')).toHaveLength(1));
    expect(server.callsOf('categoryEdit')[0]?.body).toMatchObject({
      id: 0,
      pid: 100,
      title: 'Mountains',
    });
    expect(await screen.findByText(tFiles('files.addSuccess'))).toBeInTheDocument();
    expect(await screen.findByText('Mountains')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: tFiles('files.editCategory') })).toBeDisabled();
  });

  it('edits a category with its Parent and Name', async () => {
    const { user } = setup();
    await user.click(await screen.findByText('Beach'));
    await user.click(screen.getByRole('button', { name: tFiles('files.editCategory') }));
    const dialog = await dialogTitled(tFiles('files.editCategory'));
    const name = within(dialog).getByLabelText(tFiles('files.name'));
    await waitFor(() => expect(name).toHaveValue('Beach'));
    await user.clear(name);
    await user.paste('Seaside');
    await user.click(button('files.confirm', dialog));
    await waitFor(() =>
      expect(server.callsOf('categoryEdit')[0]?.body).toMatchObject({
        id: 101,
        pid: 100,
        title: 'Seaside',
      }),
    );
    expect(await screen.findByText('Seaside')).toBeInTheDocument();
  });

  it('asks "Confirm Delete ?" before deleting a category, saying what moves where', async () => {
    const { user } = setup();
    await user.click(await screen.findByText('Work'));
    await user.click(screen.getByRole('button', { name: tFiles('files.deleteCategory') }));
    // Work holds c.pdf and no sub-category: it goes to the root (DESIGN 6).
    const moves = tFiles('files.confirmCategoryMoves', {
      name: 'Work',
      what: tFiles('files.movesFiles', { n: 1 }),
      parent: 'File Gallery',
    });
    await user.click(within(await deleteQuestion(moves)).getByRole('button', { name: /取\s*消/ }));
    expect(server.callsOf('categoryDeletePreview')[0]?.body).toMatchObject({ id: 102 });
    expect(server.callsOf('categoryDelete')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: tFiles('files.deleteCategory') }));
    await user.click(within(await deleteQuestion(moves)).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() =>
      expect(server.callsOf('categoryDelete')[0]?.body).toMatchObject({ id: 102 }),
    );
    await waitFor(() => expect(screen.queryByText('Work')).toBeNull());
  });

  it('deletes the checked files after "Confirm Delete ?" saying they go to the trash, and reloads page 1', async () => {
    const { user } = setup({ max: 5 });
    expect(await findButton('files.delete')).toBeDisabled();
    await user.click(await card('a.png'));
    await user.click(await card('b.jpg'));
    await user.click(button('files.delete', toolbar()));
    // The test server's upload settings name no trashDays: the default 30 days.
    const question = tFiles('files.confirmDeleteToTrash', { n: 2, days: 30 });
    await user.click(
      within(await deleteQuestion(question)).getByRole('button', { name: /确\s*定/ }),
    );
    await waitFor(() => expect(server.callsOf('fileDelete')).toHaveLength(1));
    expect(server.callsOf('fileDelete')[0]?.body).toMatchObject({ id: '1,2' });
    expect(await screen.findByText(tFiles('files.deleteSuccess'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'a.png' })).toBeNull());
    expect(server.callsOf('list').at(-1)?.body).toMatchObject({ page: 1 });
  });

  it('moves the checked files with Edit File', async () => {
    const { user } = setup({ max: 5 });
    await user.click(await card('d.webp'));
    await user.click(button('files.edit', toolbar()));
    const dialog = await dialogTitled(tFiles('files.editFile'));
    await user.click(within(dialog).getByRole('combobox'));
    const option = (await screen.findAllByTitle('Beach')).find((el) =>
      el.closest('.ant-select-item'),
    );
    if (!option) throw new Error('no Beach option');
    await user.click(option);
    await user.click(button('files.confirm', dialog));
    await waitFor(() =>
      expect(server.callsOf('fileEdit')[0]?.body).toMatchObject({ id: '4', categoryId: 101 }),
    );
    expect(await screen.findByText(tFiles('files.editSuccess'))).toBeInTheDocument();
  });

  it('keeps the selection across pages and searches, numbers it in order, clears it on reload', async () => {
    for (let i = 5; i <= 12; i++)
      server.files.push({
        id: i,
        categoryId: 0,
        name: `f${i}.png`,
        type: 'png',
        size: 1,
        path: `/data/f${i}.png`,
      });
    const { user, picked } = setup({ max: 5 });
    expect(await screen.findByText(tFiles('files.total', { total: 12 }))).toBeInTheDocument();
    const order = (tile: HTMLElement) => tile.querySelector('.atrium-fp-order')?.textContent;
    await user.click(await card('f12.png'));
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(server.callsOf('list').at(-1)?.body).toMatchObject({ page: 2 }));
    await user.click(await card('b.jpg'));
    expect(order(await card('b.jpg'))).toBe('2');
    await user.click(screen.getByTitle('1'));
    expect(await card('f12.png')).toHaveAttribute('aria-checked', 'true');
    expect(order(await card('f12.png'))).toBe('1');
    expect(screen.getByText(tFiles('files.checked', { n: 2 }))).toBeInTheDocument();

    // Search by name, within the current category; the selection stays.
    await user.type(screen.getByRole('searchbox', { name: tFiles('files.search') }), 'F1{Enter}');
    await waitFor(() =>
      expect(server.callsOf('list').at(-1)?.body).toMatchObject({ page: 1, keywords: 'F1' }),
    );
    expect(await screen.findByText(tFiles('files.total', { total: 3 }))).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'a.png' })).toBeNull();
    await user.click(await card('f10.png'));
    expect(order(await card('f10.png'))).toBe('3');
    // Reversed, the numbers say so.
    await user.click(screen.getByRole('checkbox', { name: tFiles('files.reverseSelectOrder') }));
    expect(order(await card('f10.png'))).toBe('1');
    expect(order(await card('f12.png'))).toBe('3');
    await user.click(button('files.confirm'));
    expect(picked.at(-1)?.map((p) => p.filename)).toEqual(['f10.png', 'b.jpg', 'f12.png']);
  });

  it('a reload (another category) clears the selection; the details pane shows the last file clicked', async () => {
    const { user } = setup({ max: 5 });
    expect(screen.getByText(tFiles('files.detailsHint'))).toBeInTheDocument();
    await user.click(await card('a.png'));
    expect(screen.getByText(tFiles('files.checked', { n: 1 }))).toBeInTheDocument();
    const pane = await screen.findByLabelText(tFiles('files.details'));
    expect(within(pane).getByText('a.png')).toBeInTheDocument();
    expect(within(pane).getByText('10 B')).toBeInTheDocument();
    expect(within(pane).getByText('PNG')).toBeInTheDocument();
    expect(within(pane).getByText(tFiles('files.detailDimensions'))).toBeInTheDocument();
    await user.click(screen.getByText('Work'));
    expect(await card('c.pdf')).toHaveAttribute('aria-checked', 'false');
    expect(screen.queryByText(tFiles('files.checked', { n: 1 }))).toBeNull();
    expect(screen.getByText(tFiles('files.detailsHint'))).toBeInTheDocument();
  });

  it('folds the category menu behind a toggle under 600 px; choosing closes it', async () => {
    setWindowWidth(375);
    const { user } = setup();
    await card('a.png');
    expect(screen.queryByText('Holidays')).toBeNull();
    const toggle = screen.getByRole('button', {
      expanded: false,
      name: new RegExp(tFiles('files.categories')),
    });
    await user.click(toggle);
    await user.click(await screen.findByText('Work'));
    await waitFor(() => expect(screen.queryByText('Holidays')).toBeNull());
    expect(screen.getByRole('button', { expanded: false, name: /Work/ })).toBeInTheDocument();
  });

  it('works flat in the page without a dialog', async () => {
    const { container } = setup({ mode: 'flat', open: false, onConfirm: undefined, max: 10 });
    expect(await card('a.png')).toBeInTheDocument();
    expect(container.querySelector('.atrium-fp-flat .atrium-fp-gallery')).not.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: label(tFiles('files.confirm')) })).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('alerts when an external selector is asked for but none is configured', async () => {
    setup({ external: true });
    expect(await screen.findByText(tFiles('files.selectorNotConfigured'))).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });
});
