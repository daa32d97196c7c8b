import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from './locales/en';
import { zhCN } from './locales/zh-cn';
import {
  adoptSiteLanguage,
  browserLanguage,
  currentLanguage,
  firstLanguage,
  i18n,
  setLanguage,
  t,
  tText,
} from './i18n';

afterEach(() => {
  vi.restoreAllMocks();
  setLanguage('zh-CN');
});

describe('translation', () => {
  it('speaks Chinese by default and English when chosen, remembering the choice', () => {
    setLanguage('zh-CN');
    expect(t('dialog.title')).toBe('提示');
    expect(t('loading.text')).toBe('加载中...');
    setLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(localStorage.getItem('atrium.lang')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(t('dialog.ok')).toBe('OK');
    expect(t('app.newVersion')).toBe('Page code has been updated, refresh the page now?');
  });

  it('carries the SPEC texts word for word', () => {
    expect(zhCN['app.newVersion']).toBe('页面代码已更新，是否立即刷新页面？');
    expect(zhCN['dialog.title']).toBe('提示');
    expect(zhCN['loading.text']).toBe('加载中...');
    expect(en['api.notFound']).toBe('Request failed: address does not exist');
  });

  it('has a text for every key in both languages, with the same placeholders', () => {
    const holes = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const key of Object.keys(zhCN) as (keyof typeof zhCN)[]) {
      expect(en[key], key).toBeTruthy();
      expect(holes(en[key]), key).toEqual(holes(zhCN[key]));
    }
  });

  it('translates menu keys that arrive as data and shows unknown ones as they are', () => {
    setLanguage('en');
    expect(tText('menu.dashboard')).toBe('Dashboard');
    expect(tText('Custom entry')).toBe('Custom entry');
  });

  it('does not HTML-escape interpolated values (React escapes on render)', () => {
    expect(i18n.t('dashboard.greeting', { name: '<b>' })).toContain('<b>');
  });
});

describe('the language of a first visit', () => {
  it("reads the browser's languages: zh-* is Chinese, en-* English, the first one we speak wins", () => {
    expect(browserLanguage(['zh-TW', 'en'])).toBe('zh-CN');
    expect(browserLanguage(['zh'])).toBe('zh-CN');
    expect(browserLanguage(['en-GB', 'zh-CN'])).toBe('en');
    expect(browserLanguage(['fr-FR', 'de', 'zh-Hans-CN'])).toBe('zh-CN');
    expect(browserLanguage(['fr-FR', 'de'])).toBeUndefined();
    expect(browserLanguage([])).toBeUndefined();
  });

  it("puts the person's choice first, then the browser, then the site's default, else English", () => {
    expect(firstLanguage({ stored: 'en', browser: 'zh-CN', site: 'zh-CN' })).toBe('en');
    expect(firstLanguage({ browser: 'zh-CN', site: 'en' })).toBe('zh-CN');
    expect(firstLanguage({ browser: 'en', site: 'zh-CN' })).toBe('en');
    expect(firstLanguage({ site: 'zh-CN' })).toBe('zh-CN');
    expect(firstLanguage({})).toBe('en');
  });

  it("takes the site's default only when nothing was chosen and the browser names neither", () => {
    const languages = vi.spyOn(navigator, 'languages', 'get');
    languages.mockReturnValue(['fr-FR']);
    setLanguage('en');
    localStorage.clear();
    expect(adoptSiteLanguage('zh-CN')).toBe('zh-CN');
    expect(currentLanguage()).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    // Not remembered as the person's choice.
    expect(localStorage.getItem('atrium.lang')).toBeNull();

    languages.mockReturnValue(['en-US', 'fr']);
    expect(adoptSiteLanguage('zh-CN')).toBe('en');
    expect(currentLanguage()).toBe('en');

    languages.mockReturnValue(['fr']);
    setLanguage('en');
    expect(adoptSiteLanguage('zh-CN')).toBe('en');
    expect(adoptSiteLanguage('klingon')).toBe('en');
  });
});
