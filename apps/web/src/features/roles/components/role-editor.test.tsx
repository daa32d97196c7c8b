import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RoleView } from '@atrium/shared/contract/admins';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { resetStores } from '@/test-utils/reset-stores';
import { RoleEditor } from './role-editor';

let server: LocalServer;
let saved: RoleView | undefined;
// antd under jsdom is slow enough already; no pause between keystrokes.
const user = userEvent.setup({ delay: null });

beforeAll(async () => {
  installResizeObserver();
  server = await startLocalServer((req, res) => {
    const body = JSON.parse(req.body) as { name: string; rules: string[] };
    sendJson(res, {
      code: 0,
      msg: 'Add Success',
      data: { id: 9, adminCount: 0, createdAt: 1, updatedAt: 1, ...body },
    });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  setWindowWidth(1280);
  server.requests.length = 0;
  saved = undefined;
  useApiStore.getState().configure({ baseUrl: `${server.url}admin/`, tokenKey: 'admin-api-token' });
});
afterEach(cleanup);

const treeCheckbox = (title: string) => {
  const node = screen
    .getByText(title, { selector: '.ant-tree-title *' })
    .closest('.ant-tree-treenode');
  if (!(node instanceof HTMLElement)) throw new Error(`no tree node ${title}`);
  const box = node.querySelector('.ant-tree-checkbox');
  if (!(box instanceof HTMLElement)) throw new Error(`no checkbox for ${title}`);
  return box;
};

const shown = (url: string) => screen.getByTestId(`preview-${url}`).dataset.shown;

function renderEditor(role?: RoleView) {
  renderWithProviders(
    <RoleEditor role={role} onSaved={(r) => (saved = r)} onDeleted={() => undefined} />,
  );
}

// antd under jsdom needs seconds per interaction on a busy machine.
describe('role editor', { timeout: 60_000 }, () => {
  it('a checked parent stores its pattern (plus children living elsewhere) and the preview follows', async () => {
    renderEditor();
    expect(shown('system/admin')).toBe('false');

    await user.click(treeCheckbox('系统管理'));
    const stored = screen.getByTestId('stored-rules');
    expect(within(stored).getByText('system*')).toBeInTheDocument();
    expect(within(stored).getByText('member*')).toBeInTheDocument();
    expect(shown('system')).toBe('true');
    expect(shown('member')).toBe('true');
    expect(shown('dashboard')).toBe('false');

    await user.type(screen.getByLabelText('角色名称'), 'Operators');
    await user.type(screen.getByLabelText('自定义规则'), 'data/file_manager/upload{Enter}');
    await user.click(screen.getByRole('button', { name: /创建角色/ }));

    await waitFor(() => expect(saved?.id).toBe(9));
    expect(JSON.parse(server.requests[0]?.body ?? '{}')).toEqual({
      name: 'Operators',
      rules: ['system*', 'member*', 'data/file_manager/upload'],
    });
  });

  it('opens a stored role with its pages checked and its other rules kept as custom rules', async () => {
    renderEditor({
      id: 3,
      name: 'Desk',
      rules: ['member*', 'data/file_manager/upload'],
      adminCount: 2,
      createdAt: 1,
      updatedAt: 1,
    });
    expect(treeCheckbox('会员管理')).toHaveClass('ant-tree-checkbox-checked');
    expect(treeCheckbox('管理员')).not.toHaveClass('ant-tree-checkbox-checked');
    // One file permission is a box of its own, and its page is not ticked by it.
    expect(treeCheckbox('上传')).toHaveClass('ant-tree-checkbox-checked');
    expect(treeCheckbox('文件管理')).not.toHaveClass('ant-tree-checkbox-checked');
    const custom = screen.getByLabelText('自定义规则').closest('.ant-select');
    if (!(custom instanceof HTMLElement)) throw new Error('no custom rules box');
    expect(within(custom).queryByText('data/file_manager/upload')).toBeNull();
    // Held by admins: it can't be deleted.
    expect(screen.getByRole('button', { name: /删\s*除/ })).toBeDisabled();
  });

  it('stores exactly the one file permission ticked, never its parent', async () => {
    renderEditor();
    await user.click(treeCheckbox('查看和选择文件'));
    expect(treeCheckbox('文件管理')).not.toHaveClass('ant-tree-checkbox-checked');
    expect(treeCheckbox('资料库')).not.toHaveClass('ant-tree-checkbox-checked');
    const stored = screen.getByTestId('stored-rules');
    expect(within(stored).getByText('data/file_manager/view')).toBeInTheDocument();
    expect(within(stored).queryByText('data*')).toBeNull();
    // Ticking the page itself grants all four, shown checked and locked below it.
    await user.click(treeCheckbox('文件管理'));
    expect(within(stored).getByText('data/file_manager*')).toBeInTheDocument();
    expect(treeCheckbox('删除')).toHaveClass('ant-tree-checkbox-checked');
    expect(treeCheckbox('删除')).toHaveClass('ant-tree-checkbox-disabled');
  });

  it('refuses to save a malformed custom rule or an empty name', async () => {
    renderEditor();
    await user.type(screen.getByLabelText('自定义规则'), 'bad!rule{Enter}');
    expect(await screen.findByText(/规则 bad!rule 无效/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /创建角色/ }));
    expect(await screen.findByText('请填写此项')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });
});
