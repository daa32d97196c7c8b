// @vitest-environment happy-dom
// The picker by keyboard (issue 29 point 2): WordPress's media modal as the floor.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tFiles } from '@/components/file-library/i18n';
import { installMatchMedia, installResizeObserver, setWindowWidth } from '@/test-utils/media';
import {
  startFileManagerTestServer,
  type FileManagerTestServer,
} from '@/components/file-library/testing/file-manager-test-server';
import { renderWithFreshCache } from '@/test-utils/render';
import { FilePicker } from './file-picker';
import type { PickedFile } from './selection';
import { tileKeyAction } from './tile-keys';

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
  server.categories.push(
    { id: 100, pid: 0, name: 'Holidays' },
    { id: 101, pid: 100, name: 'Beach' },
  );
  ['a.png', 'b.jpg', 'c.pdf', 'd.webp'].forEach((name, i) =>
    server.files.push({
      id: i + 1,
      categoryId: 0,
      name,
      type: name.split('.')[1] ?? '',
      size: 10,
      path: `/data/files/${name}`,
    }),
  );
});
afterEach(cleanup);

function setup(max: number) {
  const picked: PickedFile[][] = [];
  renderWithFreshCache(
    <FilePicker
      url={server.url}
      category="image"
      open
      max={max}
      onConfirm={(items) => picked.push(items)}
    />,
  );
  return { picked, user: userEvent.setup({ delay: null }) };
}

const tile = (name: string) => screen.findByRole('checkbox', { name });
const focused = () => document.activeElement;

describe('tileKeyAction', () => {
  it('moves by arrows within the page, by a row up and down, Home/End to the ends', () => {
    expect(tileKeyAction('ArrowRight', 0, 6, 3, true)).toEqual({ kind: 'move', index: 1 });
    expect(tileKeyAction('ArrowLeft', 0, 6, 3, true)).toEqual({ kind: 'none' });
    expect(tileKeyAction('ArrowRight', 5, 6, 3, true)).toEqual({ kind: 'none' });
    expect(tileKeyAction('ArrowDown', 1, 6, 3, true)).toEqual({ kind: 'move', index: 4 });
    expect(tileKeyAction('ArrowDown', 4, 6, 3, true)).toEqual({ kind: 'none' });
    expect(tileKeyAction('ArrowUp', 4, 6, 3, true)).toEqual({ kind: 'move', index: 1 });
    expect(tileKeyAction('End', 1, 6, 3, true)).toEqual({ kind: 'move', index: 5 });
    expect(tileKeyAction('Home', 5, 6, 3, true)).toEqual({ kind: 'move', index: 0 });
  });

  it('Space toggles; Enter confirms, or toggles where nothing is confirmed', () => {
    expect(tileKeyAction(' ', 2, 6, 3, true)).toEqual({ kind: 'toggle' });
    expect(tileKeyAction('Enter', 2, 6, 3, true)).toEqual({ kind: 'confirm' });
    expect(tileKeyAction('Enter', 2, 6, 3, false)).toEqual({ kind: 'toggle' });
    expect(tileKeyAction('a', 2, 6, 3, true)).toEqual({ kind: 'none' });
  });
});

describe('the picker by keyboard', () => {
  it('one tile in the Tab order; arrows move, Space toggles and announces, Enter confirms in order', async () => {
    const { user, picked } = setup(3);
    await tile('a.png');
    // Newest first: d.webp, c.pdf, b.jpg, a.png.
    const tiles = screen.getAllByRole('checkbox').filter((el) => el.closest('.atrium-fp-tiles'));
    expect(tiles.map((el) => el.getAttribute('aria-label'))).toEqual([
      'd.webp',
      'c.pdf',
      'b.jpg',
      'a.png',
    ]);
    expect(tiles.map((el) => el.tabIndex)).toEqual([0, -1, -1, -1]);
    // Name, type and state: the tile is named by the file and described by its type.
    const pdf = await tile('c.pdf');
    expect(pdf).toHaveAccessibleDescription(tFiles('files.tileType', { type: 'PDF' }));
    expect(pdf).toHaveAttribute('aria-checked', 'false');
    // No control inside a tile.
    for (const el of tiles)
      expect(el.querySelectorAll('a, button, input, [tabindex]')).toHaveLength(0);

    tiles[0]?.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(focused()).toBe(await tile('b.jpg'));
    await user.keyboard(' ');
    expect(await tile('b.jpg')).toHaveAttribute('aria-checked', 'true');
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(tFiles('files.checked', { n: 1 }));
    await user.keyboard('{ArrowLeft} ');
    expect(status).toHaveTextContent(tFiles('files.checked', { n: 2 }));
    expect(await tile('c.pdf')).toHaveAccessibleDescription(
      tFiles('files.twoSentences', {
        first: tFiles('files.tileType', { type: 'PDF' }),
        second: tFiles('files.order', { n: 2 }),
      }),
    );
    await user.keyboard('{End} ');
    expect(focused()).toBe(await tile('a.png'));
    // The roving stop follows focus: Tab away and back lands on the tile last focused.
    expect((await tile('a.png')).tabIndex).toBe(0);
    expect((await tile('d.webp')).tabIndex).toBe(-1);
    // Space again unselects it; once more selects it, last.
    await user.keyboard(' ');
    expect(status).toHaveTextContent(tFiles('files.checked', { n: 2 }));
    await user.keyboard(' ');
    expect(status).toHaveTextContent(tFiles('files.checked', { n: 3 }));
    await user.keyboard('{Home}');
    expect(focused()).toBe(await tile('d.webp'));
    await user.keyboard('{Enter}');
    expect(picked.map((items) => items.map((item) => item.filename))).toEqual([
      ['b.jpg', 'c.pdf', 'a.png'],
    ]);
  });

  it('Tab reaches the tree, the toolbar, the grid (once) and the footer, in that order', async () => {
    const { user } = setup(3);
    await tile('a.png');
    const filter = screen.getByRole('textbox', { name: tFiles('files.filter') });
    filter.focus();
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
      const here = region(focused());
      if (here !== 'other' && regions.at(-1) !== here) regions.push(here);
      if (focused()?.closest('.atrium-fp-tiles')) expect(focused()).toBe(await tile('d.webp'));
    }
    expect(regions).toEqual(['tree', 'toolbar', 'grid', 'footer']);
  });

  it('the tree by arrow keys (antd Tree): Down to a category, Space opens it, Left folds it', async () => {
    const { user } = setup(3);
    await screen.findByText('Beach');
    const tree = document.body.querySelector('.atrium-fp-tree [role="tree"]');
    if (!(tree instanceof HTMLElement)) throw new Error('no tree');
    expect(tree.tabIndex).toBe(0);
    tree.focus();
    // Down the tree (the root "all" first, then Holidays) to the category.
    for (let i = 0; i < 5 && !tree.getAttribute('aria-activedescendant')?.endsWith('-100'); i++)
      await user.keyboard('{ArrowDown}');
    expect(tree.getAttribute('aria-activedescendant')).toMatch(/-100$/);
    await user.keyboard(' ');
    await waitFor(() =>
      expect(server.callsOf('list').map((c) => c.body)).toContainEqual(
        expect.objectContaining({ categoryId: 100 }),
      ),
    );
    const holidays = () => {
      const item = within(tree)
        .getAllByRole('treeitem')
        .find((el) => el.textContent === 'Holidays');
      if (!item) throw new Error('no Holidays');
      return item;
    };
    await waitFor(() => expect(holidays()).toHaveAttribute('aria-selected', 'true'));
    expect(holidays()).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(holidays()).toHaveAttribute('aria-expanded', 'false'));
    // (Unfolding again waits for the fold's animation to end, which a test DOM never plays:
    // picker-keyboard.e2e.ts unfolds it in the browser.)
    expect(document.activeElement).toBe(tree);
  });
});
