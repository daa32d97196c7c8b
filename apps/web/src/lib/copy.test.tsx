import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { copyText } from './copy';
import { setLanguage } from './i18n';
import { renderWithProviders } from '@/test-utils/render';

let clipboard: string[] = [];
let refuse = false;

beforeEach(() => {
  setLanguage('en');
  clipboard = [];
  refuse = false;
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: async (text: string) => {
        if (refuse) throw new Error('denied');
        clipboard.push(text);
      },
    },
  });
  renderWithProviders(<main />);
});
afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

describe('copyText', () => {
  it('copies and says "Copy Success"', async () => {
    await expect(copyText('https://example.test/a.png')).resolves.toBe(true);
    expect(clipboard).toEqual(['https://example.test/a.png']);
    expect(await screen.findByText('Copy Success')).toBeInTheDocument();
  });

  it('says "Copy Fail" when neither the clipboard nor the selection copy works', async () => {
    refuse = true;
    // jsdom has no copy command, as in browsers that refuse it.
    await expect(copyText('x')).resolves.toBe(false);
    expect(await screen.findByText('Copy Fail')).toBeInTheDocument();
  });

  it('says "复制成功" in Chinese', async () => {
    setLanguage('zh-CN');
    await copyText('x');
    expect(await screen.findByText('复制成功')).toBeInTheDocument();
  });
});
