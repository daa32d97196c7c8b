import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { ResponsiveTable } from './responsive-table';

interface Row {
  id: number;
  name: string;
  owner: { nickname: string };
}

const rows: Row[] = [
  { id: 1, name: 'Lobby', owner: { nickname: 'Ann' } },
  { id: 2, name: 'Garden', owner: { nickname: 'Bo' } },
];

let edited: number[] = [];
const cardList = () => document.querySelector<HTMLElement>('ul.atrium-card-rows');

function RoomsLike({ total = 2 }: { total?: number }) {
  return (
    <ResponsiveTable<Row>
      rowKey="id"
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      pagination={{ current: 1, pageSize: 2, total, showTotal: (n) => `共 ${n} 条` }}
      columns={[
        { title: '名称', dataIndex: 'name', key: 'name' },
        { title: '创建者', dataIndex: ['owner', 'nickname'], key: 'owner', responsive: ['md'] },
        {
          title: '操作',
          key: 'actions',
          render: (_: unknown, row: Row) => (
            <Button type="link" onClick={() => edited.push(row.id)}>
              编辑 {row.name}
            </Button>
          ),
        },
      ]}
    />
  );
}

beforeAll(() => installResizeObserver());
afterEach(() => {
  cleanup();
  edited = [];
  setWindowWidth(1280);
});

describe('admin tables: one layout per width', () => {
  it('is a table on a wide window', () => {
    setWindowWidth(1280);
    renderWithProviders(<RoomsLike />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeInTheDocument();
    expect(cardList()).toBeNull();
  });

  it('below 600 px each row is a card: every field labelled, the actions at its foot', async () => {
    setWindowWidth(375);
    renderWithProviders(<RoomsLike total={5} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const list = cardList();
    if (!list) throw new Error('no cards');
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [first] = cards;
    if (!first) throw new Error('no card');
    // Every column but the actions, even those a wide table hides on narrow screens.
    expect(within(first).getByText('名称')).toBeInTheDocument();
    expect(within(first).getByText('Lobby')).toBeInTheDocument();
    expect(within(first).getByText('创建者')).toBeInTheDocument();
    expect(within(first).getByText('Ann')).toBeInTheDocument();
    expect(within(first).queryByText('操作')).not.toBeInTheDocument();
    await userEvent.click(within(first).getByRole('button', { name: '编辑 Lobby' }));
    expect(edited).toEqual([1]);
    // The pages stay reachable.
    expect(screen.getByText('共 5 条')).toBeInTheDocument();
  });

  it('follows the window across the 600 px line', () => {
    setWindowWidth(1280);
    renderWithProviders(<RoomsLike />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    act(() => setWindowWidth(599));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(cardList()?.querySelectorAll(':scope > li')).toHaveLength(2);
  });
});
