import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProviderRecord } from '@atrium/shared/contract/chat';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { resetStores } from '@/test-utils/reset-stores';
import { ProviderDialog } from './provider-dialog';

let server: LocalServer;
let closed = 0;
const user = userEvent.setup({ delay: null });

const provider: ProviderRecord = {
  id: 3,
  name: 'OpenAI',
  baseUrl: 'https://api.openai.com/v1',
  hasKey: true,
  keyHint: '••••3f9a',
  models: [],
  createdAt: 1,
  updatedAt: 1,
};

beforeAll(async () => {
  installResizeObserver();
  server = await startLocalServer((req, res) => {
    const body = JSON.parse(req.body) as Record<string, unknown>;
    sendJson(res, { code: 0, msg: 'Save Success', data: { ...provider, ...body } });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  setWindowWidth(1280);
  server.requests.length = 0;
  closed = 0;
  useApiStore.getState().configure({ baseUrl: `${server.url}admin/`, tokenKey: 'admin-api-token' });
});
afterEach(cleanup);

const open = () =>
  renderWithProviders(<ProviderDialog provider={provider} onClose={() => (closed += 1)} />);
const keyInput = () => screen.getByLabelText('API Key');
const setBaseUrl = async (url: string, label = '接口地址') => {
  await user.clear(screen.getByLabelText(label));
  await user.type(screen.getByLabelText(label), url);
};
const sent = () => server.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('provider dialog: the saved key and a changed base URL', { timeout: 60_000 }, () => {
  it('keeps the saved key for the same address, however it is written', async () => {
    open();
    expect(keyInput()).toHaveAttribute('placeholder', '留空则保留现有的 Key');
    await setBaseUrl('HTTPS://API.openai.com/v1/');
    expect(keyInput()).toHaveAttribute('placeholder', '留空则保留现有的 Key');
    expect(screen.queryByText(/只会发送到保存时的地址/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(closed).toBe(1));
    expect(sent()).toEqual([{ id: 3, name: 'OpenAI', baseUrl: 'HTTPS://API.openai.com/v1/' }]);
  });

  it('asks for the key again when the address changes, and sends nothing until it is entered', async () => {
    open();
    await setBaseUrl('https://proxy.example.com/v1');
    expect(keyInput()).toHaveAttribute('placeholder', '接口地址已更改，请重新输入 Key');
    expect(
      screen.getByText(
        '已保存的 Key 只会发送到保存时的地址。更换地址后请重新输入，或勾选下方选项不再使用 Key。',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /测试连接/ }));
    await user.click(screen.getByRole('button', { name: '保 存' }));
    expect(
      await screen.findByText('接口地址已更改，请重新输入 Key', {
        selector: '.ant-form-item-explain-error',
      }),
    ).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
    expect(closed).toBe(0);

    await user.type(keyInput(), 'sk-for-the-proxy');
    await user.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(closed).toBe(1));
    expect(sent()).toEqual([
      {
        id: 3,
        name: 'OpenAI',
        baseUrl: 'https://proxy.example.com/v1',
        apiKey: 'sk-for-the-proxy',
      },
    ]);
  });

  it('a new address may go without a key when the saved one is removed', async () => {
    setLanguage('en');
    open();
    await setBaseUrl('http://127.0.0.1:11434/v1', 'Base URL');
    expect(screen.getByLabelText('API key')).toHaveAttribute(
      'placeholder',
      'The base URL changed: enter the key again',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Remove the saved key' }));
    // The hint follows the box through Form.useWatch, whose update can land after the click's
    // own render (a run beside a busy machine read the hint still there).
    await waitFor(() =>
      expect(screen.queryByText(/only goes to the address/)).not.toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(closed).toBe(1));
    expect(sent()).toEqual([
      { id: 3, name: 'OpenAI', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: '' },
    ]);
  });
});
