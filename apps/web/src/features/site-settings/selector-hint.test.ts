import { describe, expect, it } from 'vitest';
import { en } from '@/lib/locales/en';
import { zhCN } from '@/lib/locales/zh-cn';
import { filesEn } from '@/components/file-library/locales/en';
import { filesZhCN } from '@/components/file-library/locales/zh-cn';
import { settingsEn } from './locales/en';
import { settingsZhCN } from './locales/zh-cn';

/**
 * The external selector's alert names where its address is set, in the words of the settings
 * page (issue 27, point 4): a renamed menu, section or field must rename the hint too.
 */
describe("the external selector's alert", () => {
  it('names the setting by its name in the settings page, in both languages', () => {
    const cases = [
      { hint: filesZhCN['files.selectorWhereToSet'], app: zhCN, settings: settingsZhCN },
      { hint: filesEn['files.selectorWhereToSet'], app: en, settings: settingsEn },
    ];
    for (const { hint, app, settings } of cases) {
      const place = [
        app['menu.system'],
        app['menu.settings'],
        settings['settings.section.selector'],
        settings['settings.selectorServer'],
      ].join(' › ');
      expect(hint).toContain(place);
    }
  });
});
