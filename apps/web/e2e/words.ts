import { expect } from '@playwright/test';
import { fieldsEn } from '../src/components/fields/locales/en';
import { fieldsZhCN } from '../src/components/fields/locales/zh-cn';
import { filesEn } from '../src/components/file-library/locales/en';
import { filesZhCN } from '../src/components/file-library/locales/zh-cn';
import { chatEn } from '../src/features/chat/locales/en';
import { chatZhCN } from '../src/features/chat/locales/zh-cn';
import { chatDocsEn } from '../src/features/chat/locales/docs-en';
import { chatDocsZhCN } from '../src/features/chat/locales/docs-zh-cn';
import { chatShareEn } from '../src/features/chat/locales/share-en';
import { chatShareZhCN } from '../src/features/chat/locales/share-zh-cn';
import { roomsEn } from '../src/features/rooms/locales/en';
import { roomsZhCN } from '../src/features/rooms/locales/zh-cn';
import { uploadSettingsEn } from '../src/features/upload-settings/locales/en';
import { uploadSettingsZhCN } from '../src/features/upload-settings/locales/zh-cn';
import { en } from '../src/lib/locales/en';
import { zhCN } from '../src/lib/locales/zh-cn';

/**
 * The web's catalogues, for the specs that walk a flow in one language and check the other by
 * its keys (issue 30 point 1): the flow finds each text by its key in the language it runs in,
 * so the screen is proved to show that key; `expectBothLanguages` then proves the other language
 * has its own text for each key, without loading every page a second time.
 */
const chinese = {
  ...zhCN,
  ...fieldsZhCN,
  ...filesZhCN,
  ...chatZhCN,
  ...chatShareZhCN,
  ...chatDocsZhCN,
  ...roomsZhCN,
  ...uploadSettingsZhCN,
};

export type WordKey = keyof typeof chinese;
export type Lang = 'zh-CN' | 'en';

const catalogues: Record<Lang, Record<WordKey, string>> = {
  'zh-CN': chinese,
  en: {
    ...en,
    ...fieldsEn,
    ...filesEn,
    ...chatEn,
    ...chatShareEn,
    ...chatDocsEn,
    ...roomsEn,
    ...uploadSettingsEn,
  },
};

/** The text of `key` in `lang`, its `{{name}}` places filled from `vars`. */
export function say(lang: Lang, key: WordKey, vars: Record<string, string | number> = {}): string {
  return catalogues[lang][key].replace(/\{\{(\w+)\}\}/g, (whole: string, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** Every key has a text of its own in both languages (not empty, not left in the other one). */
export function expectBothLanguages(keys: readonly WordKey[]): void {
  for (const key of keys) {
    const zh = catalogues['zh-CN'][key];
    const english = catalogues.en[key];
    expect(zh, key).not.toBe('');
    expect(english, key).not.toBe('');
    expect(english, key).not.toBe(zh);
  }
}
