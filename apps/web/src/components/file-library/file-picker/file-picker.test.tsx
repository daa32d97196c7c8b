// @vitest-environment happy-dom
// (antd's thousands of style rules make every style lookup of jsdom slow: 75 s here against 20 s)
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { tFiles } from '@/components/file-library/i18n';
import {
  antdLabel,
  chooseOption,
  dialogAsking,
  dialogTitled,
  part,
  testFile,
  testUser,
  setUpFileManagerTestServer,
} from '@/components/file-library/testing/picker-test-setup';
import { renderWithFreshCache } from '@/test-utils/render';
import { FilePicker, type FilePickerProps } from './file-picker';
import type { PickedFile } from './selection';

/**
 * The picker's wiring, one render a mode (dialog, flat, library only). The rules it wires are
 * tested alone: selection.test (max, numbers, reverse, select all, confirm), picker-list-state
 * .test (the selection across pages and searches, page 1 after a change), paging.test,
 * list-view.test (sort and filters), picker-questions.test, categories.test, tile-keys.test and
 * file-grid.test (the grid by keyboard); category add/edit/delete, the custom link, the narrow
 * fold and the tree by keys run in the browser (files-picker.e2e, picker-keyboard.e2e).
 */
const server = setUpFileManagerTestServer((s) => {
  s.categories.push(
    { id: 100, pid: 0, name: 'Holidays' },
    { id: 101, pid: 100, name: 'Beach' },
    { id: 102, pid: 0, name: 'Work' },
  );
  ['a.png', 'b.jpg', 'c.pdf', 'd.webp'].forEach((name, i) =>
    s.files.push(testFile(i + 1, name, { categoryId: i === 2 ? 102 : 0 })),
  );
  // Twelve files in all: two pages of ten, newest (highest id) first.
  for (let id = 5; id <= 12; id++) s.files.push(testFile(id, `f${id}.png`, { size: 1 }));
});

function setup(props: Partial<FilePickerProps> = {}) {
  const picked: PickedFile[][] = [];
  let closed = 0;
  const view = renderWithFreshCache(
    <FilePicker
      url={server().url}
      category="image"
      open
      onClose={() => closed++}
      onConfirm={(items) => picked.push(items)}
      {...props}
    />,
  );
  return { ...view, picked, closedCount: () => closed, user: testUser() };
}

const card = (name: string) => screen.findByRole('checkbox', { name });
/** A first load waits longer: a cold antd dialog on a busy machine takes more than a step's 10 s. */
const firstLoad = { timeout: 30_000 };
const order = async (name: string) =>
  (await card(name)).querySelector('.atrium-fp-order')?.textContent;
const button = (key: Parameters<typeof tFiles>[0], scope: HTMLElement = document.body) =>
  within(scope).getByRole('button', { name: antdLabel(tFiles(key)) });
const lastList = () => server().callsOf('list').at(-1)?.body;
const selectPage = () => screen.findByRole('checkbox', { name: tFiles('files.selectPage') });
/** The tiles' names, in the order shown. */
const shown = () =>
  Array.from(document.querySelectorAll('.atrium-fp-tiles [role="checkbox"]')).map((tile) =>
    tile.getAttribute('aria-label'),
  );

describe('FilePicker', () => {
  // One walk through three renders: longer than one step's room, shorter than the steps apart.
  it('wires the library to the dialog, the flat page and a library-only caller', async () => {
    // An external selector asked for but not configured: an alert, nothing asked of the server.
    setup({ external: true });
    expect(await screen.findByText(tFiles('files.selectorNotConfigured'))).toBeInTheDocument();
    cleanup();
    // Without View nothing renders and nothing is asked.
    const hidden = setup({ category: 'audio', permission: { view: false } });
    expect(hidden.container.querySelector('.atrium-fp')).toBeNull();
    expect(document.body.querySelector('.ant-modal')).toBeNull();
    cleanup();
    expect(server().calls).toHaveLength(0);

    // The dialog: "Please Select", both tabs, the tree, then page 1 of everything.
    const { user, picked, closedCount } = setup({ max: 3 });
    expect(
      await screen.findByText(tFiles('files.pleaseSelect'), {}, firstLoad),
    ).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: tFiles('files.fileGallery') })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: tFiles('files.customLink') })).toBeInTheDocument();
    expect(await screen.findByText('Holidays', {}, firstLoad)).toBeInTheDocument();
    expect(await card('f12.png')).toBeInTheDocument();
    expect(server().callsOf('category')).toHaveLength(1);
    expect(server().callsOf('list')[0]?.body).toMatchObject({ page: 1, categoryId: 0 });
    expect(await screen.findByText(tFiles('files.total', { total: 12 }))).toBeInTheDocument();
    expect(button('files.upload')).toBeInTheDocument();
    // Thumbnails for images, "<TYPE> File(s)" for the rest, no control inside a tile.
    const pdf = await card('c.pdf');
    expect(pdf.querySelector('img')).toBeNull();
    expect(within(pdf).getByText(tFiles('files.typeFiles', { type: 'PDF' }))).toBeInTheDocument();
    expect(pdf).toHaveAccessibleDescription(tFiles('files.tileType', { type: 'PDF' }));
    expect((await card('d.webp')).querySelector('img')).not.toBeNull();
    expect((await card('d.webp')).querySelectorAll('a, button, input, [tabindex]')).toHaveLength(0);

    // Tab reaches the tree, the toolbar, the grid (once, on its first tile) and the footer.
    screen.getByRole('textbox', { name: tFiles('files.filter') }).focus();
    const regions: string[] = [];
    const region = (el: Element | null) =>
      el?.closest('.atrium-fp-side')
        ? 'tree'
        : el?.closest('.atrium-fp-tiles, .atrium-fp-pagination')
          ? 'grid'
          : el?.closest('.atrium-fp-main')
            ? 'toolbar'
            : el?.closest('.atrium-fp-footer')
              ? 'footer'
              : 'other';
    for (let i = 0; i < 40 && !regions.includes('footer'); i++) {
      await user.tab();
      const here = region(document.activeElement);
      if (here !== 'other' && regions.at(-1) !== here) regions.push(here);
      if (document.activeElement?.closest('.atrium-fp-tiles'))
        expect(document.activeElement).toBe(await card('f12.png'));
    }
    expect(regions).toEqual(['tree', 'toolbar', 'grid', 'footer']);

    // A click checks a file, numbers it, says how many and shows its details.
    expect(screen.getByText(tFiles('files.detailsHint'))).toBeInTheDocument();
    await user.click(await card('d.webp'));
    expect(await card('d.webp')).toHaveAttribute('aria-checked', 'true');
    expect(await order('d.webp')).toBe('1');
    expect(part('.atrium-fp-count')).toHaveTextContent(tFiles('files.checked', { n: 1 }));
    const pane = await screen.findByLabelText(tFiles('files.details'));
    expect(within(pane).getByText('d.webp')).toBeInTheDocument();
    expect(within(pane).getByText('10 B')).toBeInTheDocument();
    expect(within(pane).getByText('WEBP')).toBeInTheDocument();
    const open = within(part('.atrium-fp-aside')).getByRole('link', {
      name: antdLabel(tFiles('files.open')),
    });
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('href', 'http://cdn.test/data/files/d.webp');

    // The selection holds across pages and searches.
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastList()).toMatchObject({ page: 2 }));
    await user.click(await card('b.jpg'));
    expect(await order('b.jpg')).toBe('2');
    await user.click(screen.getByTitle('1'));
    expect(await card('d.webp')).toHaveAttribute('aria-checked', 'true');
    await user.type(screen.getByRole('searchbox', { name: tFiles('files.search') }), 'F1{Enter}');
    await waitFor(() => expect(lastList()).toMatchObject({ page: 1, keywords: 'F1' }));
    expect(await screen.findByText(tFiles('files.total', { total: 3 }))).toBeInTheDocument();
    await user.click(await card('f10.png'));
    expect(await order('f10.png')).toBe('3');
    // A fourth is refused.
    await user.click(await card('f11.png'));
    expect(await screen.findByText(tFiles('files.selectAtMost', { n: 3 }))).toBeInTheDocument();
    expect(await card('f11.png')).toHaveAttribute('aria-checked', 'false');
    // Reversed, the numbers say so, and Confirm hands the files back in that order and closes.
    await user.click(screen.getByRole('checkbox', { name: tFiles('files.reverseSelectOrder') }));
    expect(await order('f10.png')).toBe('1');
    await user.click(button('files.confirm'));
    expect(picked.map((items) => items.map((item) => item.filename))).toEqual([
      ['f10.png', 'b.jpg', 'd.webp'],
    ]);
    expect(closedCount()).toBe(1);
    cleanup();

    // Flat in a page: no dialog, tabs or Confirm; sort, select all, move and delete.
    const flat = setup({ mode: 'flat', open: false, onConfirm: undefined, max: 10 });
    await screen.findByRole('checkbox', { name: 'f12.png' }, firstLoad);
    expect(flat.container.querySelector('.atrium-fp-flat .atrium-fp-gallery')).not.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('button', { name: antdLabel(tFiles('files.confirm')) })).toBeNull();
    expect(screen.getByRole('button', { name: tFiles('files.editCategory') })).toBeDisabled();
    expect(screen.getByRole('button', { name: tFiles('files.deleteCategory') })).toBeDisabled();
    const filters = screen.getByRole('button', { name: antdLabel(tFiles('files.filters')) });
    expect(filters).toHaveAttribute('aria-expanded', 'false');
    await flat.user.click(filters);
    expect(screen.getByPlaceholderText(tFiles('files.dateFrom'))).toBeInTheDocument();
    await chooseOption(
      flat.user,
      screen.getByRole('combobox', { name: tFiles('files.sortBy') }),
      tFiles('files.sortNameAsc'),
    );
    await waitFor(() => expect(shown().slice(0, 4)).toEqual(['a.png', 'b.jpg', 'c.pdf', 'd.webp']));
    expect(lastList()).toMatchObject({ page: 1, sort: 'name', order: 'asc' });
    expect(screen.getByTitle(tFiles('files.filtersActive', { n: 1 }))).toBeInTheDocument();

    await flat.user.click(await card('a.png'));
    expect(await selectPage()).toHaveProperty('indeterminate', true);
    await flat.user.click(await selectPage());
    expect(await selectPage()).toBeChecked();
    expect(part('.atrium-fp-count')).toHaveTextContent(tFiles('files.checked', { n: 10 }));
    // Move (Edit File): every checked file, in the order checked, then a fresh load.
    await flat.user.click(button('common.edit', part('.atrium-fp-actions')));
    const move = await dialogTitled(tFiles('files.editFile'));
    await chooseOption(flat.user, within(move).getByRole('combobox'), 'Work');
    await flat.user.click(button('files.confirm', move));
    await waitFor(() =>
      expect(server().callsOf('fileEdit')[0]?.body).toMatchObject({
        id: '1,2,3,4,10,11,12,5,6,7',
        categoryId: 102,
      }),
    );
    expect(await screen.findByText(tFiles('files.editSuccess'))).toBeInTheDocument();
    await waitFor(async () => expect(await selectPage()).not.toBeChecked());
    expect(screen.getByText(tFiles('files.detailsHint'))).toBeInTheDocument();
    expect(button('common.delete', part('.atrium-fp-actions'))).toBeDisabled();

    // The category: its files only, its Edit and Delete on; delete after "Confirm Delete ?".
    await flat.user.click(await screen.findByText('Work', { selector: '.ant-tree-title' }));
    await waitFor(() => expect(lastList()).toMatchObject({ page: 1, categoryId: 102 }));
    expect(screen.getByRole('button', { name: tFiles('files.editCategory') })).toBeEnabled();
    expect(screen.getByRole('button', { name: tFiles('files.deleteCategory') })).toBeEnabled();
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'f8.png' })).toBeNull());
    await flat.user.click(await selectPage());
    await flat.user.click(button('common.delete', part('.atrium-fp-actions')));
    const question = tFiles('files.confirmDeleteToTrash', { n: 10, days: 30 });
    await flat.user.click(
      within(await dialogAsking(question)).getByRole('button', { name: /确\s*定/ }),
    );
    await waitFor(() =>
      expect(server().callsOf('fileDelete')[0]?.body).toMatchObject({
        id: '1,2,3,4,10,11,12,5,6,7',
      }),
    );
    expect(await screen.findByText(tFiles('files.deleteSuccess'))).toBeInTheDocument();
    expect(await screen.findByText(tFiles('files.noRecords'))).toBeInTheDocument();
    cleanup();

    // Library only, max 1, no rights beyond View: one file, nothing to type, nothing to change.
    const only = setup({
      libraryOnly: true,
      max: 1,
      permission: { upload: false, addEdit: false, delete: false },
    });
    await screen.findByRole('checkbox', { name: 'f8.png' }, firstLoad);
    // Confirm asks for at least min (1) files first.
    await only.user.click(button('files.confirm'));
    expect(await screen.findByText(tFiles('files.selectAtLeast', { n: 1 }))).toBeInTheDocument();
    expect(only.picked).toHaveLength(0);
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByLabelText(tFiles('files.url'))).toBeNull();
    expect(screen.queryByRole('button', { name: antdLabel(tFiles('files.upload')) })).toBeNull();
    for (const key of ['files.addCategory', 'files.editCategory', 'files.deleteCategory'] as const)
      expect(screen.queryByRole('button', { name: tFiles(key) })).toBeNull();
    const actions = part('.atrium-fp-actions');
    for (const key of ['common.delete', 'common.edit'] as const)
      expect(within(actions).queryByRole('button', { name: antdLabel(tFiles(key)) })).toBeNull();
    expect(button('files.copyLink', actions)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: tFiles('files.selectPage') })).toBeNull();
    // With max 1 a second click replaces the first; there is no order to reverse or number.
    await only.user.click(await card('f8.png'));
    await only.user.click(await card('f9.png'));
    expect(await card('f8.png')).toHaveAttribute('aria-checked', 'false');
    expect(await card('f9.png')).toHaveAttribute('aria-checked', 'true');
    expect(await order('f9.png')).toBeUndefined();
    expect(screen.queryByText(tFiles('files.reverseSelectOrder'))).toBeNull();
    await only.user.click(button('files.confirm'));
    expect(only.picked).toEqual([
      [
        {
          category: 'image',
          filename: 'f9.png',
          path: '/data/files/f9.png',
          fullPath: 'http://cdn.test/data/files/f9.png',
          type: 'png',
        },
      ],
    ]);
  }, 300_000);
});
