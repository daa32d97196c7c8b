import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SiteSettings } from '@atrium/shared/contract/site-settings';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { resetStores } from '@/test-utils/reset-stores';
import { SiteSettingsForm } from './site-settings-form';

let server: LocalServer;
const user = userEvent.setup({ delay: null });
/** What the fake server answers a save with; by default it keeps what was sent. */
let refuse: { field: string; error: string; params: Record<string, unknown> } | undefined;

const settings: SiteSettings = {
  siteName: 'Garden',
  siteLanguage: 'zh-CN',
  logo: '',
  favicon: '',
  banners: [],
  terms: '',
  about: '',
  metaTags: [],
  selectorMode: 'builtin',
  selectorServer: '',
  advanced: '',
};

beforeAll(async () => {
  installResizeObserver();
  server = await startLocalServer((req, res) => {
    if (!req.url.endsWith('setting/save')) {
      sendJson(res, { code: 0, msg: '', data: null });
      return;
    }
    if (refuse) {
      sendJson(res, { code: -1, msg: refuse.error, data: refuse });
      return;
    }
    const body = JSON.parse(req.body) as { settings: SiteSettings };
    sendJson(res, { code: 0, msg: '保存成功', data: body.settings });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  setWindowWidth(1280);
  refuse = undefined;
  server.requests.length = 0;
  useApiStore.getState().configure({ baseUrl: `${server.url}admin/`, tokenKey: 'admin-api-token' });
});
afterEach(cleanup);

const saved = () =>
  server.requests
    .filter((r) => r.url.endsWith('setting/save'))
    .map((r) => (JSON.parse(r.body) as { settings: SiteSettings }).settings);

describe('site settings form', { timeout: 60_000 }, () => {
  it("offers the site's default language and saves the one chosen", async () => {
    renderWithProviders(<SiteSettingsForm settings={settings} />);
    const field = screen.getByRole('combobox', { name: '站点默认语言' });
    expect(screen.getByText(/服务器回复未指明语言的请求时也使用它/)).toBeInTheDocument();
    await user.click(field);
    await user.click(await screen.findByTitle('英文'));
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({ siteName: 'Garden', siteLanguage: 'en' });
  });

  it('names the setting in English on the English page', () => {
    setLanguage('en');
    renderWithProviders(<SiteSettingsForm settings={{ ...settings, siteLanguage: 'en' }} />);
    const field = screen.getByRole('combobox', { name: 'Default language' });
    const item = field.closest('.ant-form-item');
    expect(item).not.toBeNull();
    expect(within(item as HTMLElement).getByText('English')).toBeInTheDocument();
  });

  it("shows a refusal under the field its data names, in the page's language", async () => {
    refuse = {
      field: 'settings.logo',
      error: 'admin.siteAddress',
      params: { field: { key: 'field.logo' } },
    };
    renderWithProviders(<SiteSettingsForm settings={settings} />);
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    const text = '标志必须是以“/”开头的路径或 http(s) 地址';
    await waitFor(() => {
      const shown = screen.getAllByText(text);
      expect(shown.some((node) => node.closest('.ant-form-item-explain'))).toBe(true);
    });
  });

  it('refuses the external selector without its address, in both languages, before saving', async () => {
    renderWithProviders(<SiteSettingsForm settings={settings} />);
    await user.click(screen.getByRole('radio', { name: '外部选择器' }));
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('使用外部选择器时请填写外部选择器地址')).toBeInTheDocument();
    expect(saved()).toHaveLength(0);
    // One paste, not thirty keystrokes: each keystroke re-validates the whole settings form.
    await user.click(screen.getByRole('textbox', { name: '外部选择器地址' }));
    await user.paste('https://media.example.com/pick');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({
      selectorMode: 'external',
      selectorServer: 'https://media.example.com/pick',
    });
    cleanup();

    setLanguage('en');
    renderWithProviders(<SiteSettingsForm settings={{ ...settings, selectorMode: 'external' }} />);
    await user.click(screen.getByRole('button', { name: /Save$/ }));
    expect(
      await screen.findByText('Enter the external selector address to use the external selector'),
    ).toBeInTheDocument();
    expect(saved()).toHaveLength(1);
  });
});
