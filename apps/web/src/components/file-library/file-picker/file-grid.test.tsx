import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { tFiles } from '@/components/file-library/i18n';
import { testUser } from '@/components/file-library/testing/picker-test-setup';
import { FileGrid, type FileGridProps } from './file-grid';
import type { FileRecord } from './file-record';
import { selectionOrder, toggleSelection } from './selection';

afterEach(cleanup);

const record = (id: number, filename: string): FileRecord => ({
  id,
  category: 'image',
  filename,
  name: filename,
  path: `/data/files/${filename}`,
  fullPath: `http://cdn.test/data/files/${filename}`,
  type: filename.split('.').at(-1) ?? '',
  size: 10,
  categoryId: 0,
  createdAt: id,
});
const records = ['d.webp', 'c.pdf', 'b.jpg', 'a.png'].map((name, i) => record(4 - i, name));

const grid = (props: Partial<FileGridProps>) => (
  <FileGrid
    records={[]}
    checkedIds={new Set()}
    onToggle={() => undefined}
    loading={false}
    page={1}
    pageSize={10}
    total={0}
    onPage={() => undefined}
    {...props}
  />
);

/** The grid as the picker runs it: clicks and keys check files, up to three, numbered. */
function Picking({ onConfirm }: { onConfirm: (checked: string[]) => void }) {
  const [checked, setChecked] = useState<FileRecord[]>([]);
  return grid({
    records,
    total: records.length,
    checkedIds: new Set(checked.map((r) => r.id)),
    order: selectionOrder(
      checked.map((r) => r.id),
      3,
      false,
    ),
    onToggle: (r) => {
      const result = toggleSelection(checked, r, 3, (a, b) => a.id === b.id);
      if (result.ok) setChecked(result.selected);
    },
    onConfirm: () => onConfirm(checked.map((r) => r.filename)),
  });
}

const tile = (name: string) => screen.getByRole('checkbox', { name });

describe('FileGrid', () => {
  it('says "No Records" only once the list has answered, never behind the spinner', () => {
    const view = render(grid({ loading: true }));
    expect(screen.queryByText(tFiles('files.noRecords'))).toBeNull();
    view.rerender(grid({ loading: false }));
    expect(screen.getByText(tFiles('files.noRecords'))).toBeInTheDocument();
  });

  it('shows a name as plain text, never as markup', () => {
    const tricky = record(9, '<b>bold</b>.pdf');
    render(grid({ records: [tricky], total: 1 }));
    expect(tile('<b>bold</b>.pdf').querySelector('b')).toBeNull();
    expect(tile('<b>bold</b>.pdf')).toHaveTextContent('<b>bold</b>.pdf');
  });

  it('by keyboard: one tile in the Tab order, arrows move, Space toggles, Enter confirms', async () => {
    const confirmed: string[][] = [];
    const user = testUser();
    render(<Picking onConfirm={(names) => confirmed.push(names)} />);
    const tiles = screen.getAllByRole('checkbox');
    expect(tiles.map((el) => el.getAttribute('aria-label'))).toEqual([
      'd.webp',
      'c.pdf',
      'b.jpg',
      'a.png',
    ]);
    expect(tiles.map((el) => el.tabIndex)).toEqual([0, -1, -1, -1]);
    // Named by the file, described by its type; no control inside a tile.
    expect(tile('c.pdf')).toHaveAccessibleDescription(tFiles('files.tileType', { type: 'PDF' }));
    for (const el of tiles)
      expect(el.querySelectorAll('a, button, input, [tabindex]')).toHaveLength(0);

    tiles[0]?.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(tile('b.jpg'));
    await user.keyboard(' ');
    expect(tile('b.jpg')).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{ArrowLeft} ');
    // Checked, a tile also says its place in the order.
    expect(tile('c.pdf')).toHaveAccessibleDescription(
      tFiles('files.twoSentences', {
        first: tFiles('files.tileType', { type: 'PDF' }),
        second: tFiles('files.order', { n: 2 }),
      }),
    );
    await user.keyboard('{End} ');
    expect(document.activeElement).toBe(tile('a.png'));
    // The roving stop follows focus.
    expect(tile('a.png').tabIndex).toBe(0);
    expect(tile('d.webp').tabIndex).toBe(-1);
    // Space again unselects it; once more selects it, last.
    await user.keyboard(' ');
    expect(tile('a.png')).toHaveAttribute('aria-checked', 'false');
    await user.keyboard(' ');
    expect(tile('a.png')).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(tile('d.webp'));
    await user.keyboard('{Enter}');
    expect(confirmed).toEqual([['b.jpg', 'c.pdf', 'a.png']]);
  });
});
