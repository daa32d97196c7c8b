import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '@atrium/shared/contract/audit';
import { setLanguage } from '@/lib/i18n';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { resetStores } from '@/test-utils/reset-stores';
import { AuditTable } from './audit-table';

const entry: AuditEntry = {
  id: 1,
  adminId: 1,
  adminUsername: 'founder',
  action: 'data/file_manager/image:fileDelete',
  actionText: '删除文件 · 图片库',
  target: '#3,5',
  detail: '{"action":"fileDelete","id":[3,5]}',
  ip: '127.0.0.1',
  createdAt: Date.UTC(2026, 10, 21, 9, 0, 0),
};

beforeAll(() => installResizeObserver());
beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  setWindowWidth(1280);
});
afterEach(cleanup);

describe('audit table', () => {
  it('shows the action as the phrase the server wrote, not the route', () => {
    renderWithProviders(
      <AuditTable
        data={{ records: [entry], total: 1, page: 1, pageSize: 20 }}
        loading={false}
        onPage={() => undefined}
      />,
    );
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeInTheDocument();
    expect(screen.getByText('删除文件 · 图片库')).toBeInTheDocument();
    expect(screen.queryByText(/file_manager/)).toBeNull();
  });

  it('at 375 px each entry is a card whose detail opens inside it', async () => {
    setWindowWidth(375);
    renderWithProviders(
      <AuditTable
        data={{ records: [entry], total: 1, page: 1, pageSize: 20 }}
        loading={false}
        onPage={() => undefined}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('删除文件 · 图片库')).toBeInTheDocument();
    expect(screen.getByText('127.0.0.1')).toBeInTheDocument();
    expect(screen.queryByText(/"fileDelete"/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '查看详情' }));
    expect(screen.getByText(/"fileDelete"/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '收起详情' }));
    expect(screen.queryByText(/"fileDelete"/)).toBeNull();
  });
});
