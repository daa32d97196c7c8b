import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultUploadConfig, type UploadConfig } from '@atrium/shared/contract/files';
import type { UploadSettingsView } from '@atrium/shared/contract/upload-settings';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { resetStores } from '@/test-utils/reset-stores';
import { UploadSettingsForm } from './upload-settings-form';

let server: LocalServer;
const user = userEvent.setup({ delay: null });

const view = (config: UploadConfig): UploadSettingsView => ({
  config,
  defaults: defaultUploadConfig,
  minChunkSize: 1,
  storageDriver: 'local',
});

beforeAll(async () => {
  installResizeObserver();
  server = await startLocalServer((req, res) => {
    if (!req.url.endsWith('settings/upload/save')) {
      sendJson(res, { code: 0, msg: '', data: null });
      return;
    }
    const body = JSON.parse(req.body) as { config: UploadConfig };
    sendJson(res, { code: 0, msg: 'Save Success', data: view(body.config) });
  });
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

const saved = () =>
  server.requests
    .filter((r) => r.url.endsWith('settings/upload/save'))
    .map((r) => (JSON.parse(r.body) as { config: UploadConfig }).config);

describe('upload settings form: keep original metadata', { timeout: 60_000 }, () => {
  it('is off for every library by default, and saves the library an admin turns on', async () => {
    renderWithProviders(<UploadSettingsForm view={view(defaultUploadConfig)} />);
    const image = screen.getByRole('switch', { name: '图片库 保留原始元数据' });
    expect(image).not.toBeChecked();
    expect(screen.getByRole('switch', { name: '文件库 保留原始元数据' })).not.toBeChecked();
    expect(screen.getAllByText(/去除拍摄地点、设备型号和拍摄时间/)).toHaveLength(4);

    await user.click(image);
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    const config = saved()[0];
    expect(config?.category.image.keepMetadata).toBe(true);
    expect(config?.category.file.keepMetadata).toBe(false);
    expect(config?.category.image.extensions).toEqual(
      defaultUploadConfig.category.image.extensions,
    );
  });

  it('shows a saved setting, in English too', async () => {
    setLanguage('en');
    const config = structuredClone(defaultUploadConfig);
    config.category.video.keepMetadata = true;
    renderWithProviders(<UploadSettingsForm view={view(config)} />);
    expect(
      screen.getByRole('switch', { name: 'Video library Keep original metadata' }),
    ).toBeChecked();
    expect(
      screen.getByRole('switch', { name: 'Image library Keep original metadata' }),
    ).not.toBeChecked();
  });
});
