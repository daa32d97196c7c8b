import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MessagingView } from '@atrium/shared/contract/accounts';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { resetStores } from '@/test-utils/reset-stores';
import { MessagingSettingsForm } from './messaging-form';

let server: LocalServer;
const user = userEvent.setup({ delay: null });

const view: MessagingView = {
  emailTransport: 'smtp',
  smsTransport: 'webhook',
  smtp: {
    host: 'smtp.example.com',
    port: 587,
    security: 'starttls',
    user: 'mailer',
    from: '',
    hasPassword: true,
  },
  sms: { url: 'https://sms.example.com/send', template: 'code {code}', hasSecret: true },
};

beforeAll(async () => {
  installResizeObserver();
  server = await startLocalServer((_req, res) =>
    sendJson(res, { code: 0, msg: 'Saved', data: view }),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  setWindowWidth(1280);
  server.requests.length = 0;
  useApiStore.getState().configure({ baseUrl: `${server.url}admin/`, tokenKey: 'admin-api-token' });
});
afterEach(cleanup);

const sent = () => server.requests.map((r) => JSON.parse(r.body) as MessagingView);
// Cleared, then the new value pasted in one change (typing a URL re-renders the whole form once
// per character: seconds each under jsdom).
const retype = async (label: string, text: string) => {
  await user.clear(screen.getByLabelText(label));
  await user.paste(text);
};
const errorText = (text: string) =>
  screen.findByText(text, { selector: '.ant-form-item-explain-error' });

describe('messaging form: saved secrets and changed addresses', { timeout: 60_000 }, () => {
  it('asks for the SMTP password again after the port changes', async () => {
    renderWithProviders(<MessagingSettingsForm view={view} />);
    const password = screen.getByLabelText('密码');
    expect(password).toHaveAttribute('placeholder', '已保存，留空则不修改');

    await retype('端口', '465');
    expect(password).toHaveAttribute('placeholder', '服务器或用户名已更改，请重新输入密码');
    await user.click(screen.getByRole('button', { name: '保 存' }));
    expect(await errorText('服务器或用户名已更改，请重新输入密码')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);

    await user.type(password, 'new-pass');
    await user.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(server.requests).toHaveLength(1));
    expect(sent()[0]?.smtp).toMatchObject({ port: 465, password: 'new-pass' });
  });

  it('asks for the webhook secret again after the URL changes, unless it is removed', async () => {
    renderWithProviders(<MessagingSettingsForm view={view} />);
    const secret = screen.getByLabelText('Webhook 密钥（可选）');
    expect(secret).toHaveAttribute('placeholder', '已保存，留空则不修改');

    // The same URL with a trailing slash is the same address.
    await retype('Webhook 地址', 'https://sms.example.com/send/');
    expect(secret).toHaveAttribute('placeholder', '已保存，留空则不修改');

    await retype('Webhook 地址', 'https://gateway.example.net/send');
    expect(secret).toHaveAttribute('placeholder', 'Webhook 地址已更改，请重新输入密钥');
    expect(screen.getByText(/已保存的密钥只会发送到保存时的地址/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '保 存' }));
    expect(await errorText('Webhook 地址已更改，请重新输入密钥')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);

    await user.click(screen.getByRole('checkbox', { name: '删除已保存的密钥' }));
    await user.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(server.requests).toHaveLength(1));
    expect(sent()[0]?.sms).toEqual({
      url: 'https://gateway.example.net/send',
      template: 'code {code}',
      secret: '',
    });
  });
});
