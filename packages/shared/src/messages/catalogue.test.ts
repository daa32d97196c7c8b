import { describe, expect, it } from 'vitest';
import {
  catalogue,
  catalogueParts,
  fieldName,
  message,
  pickLanguage,
  placeholdersOf,
  render,
} from './catalogue';

const entries = Object.entries(catalogue) as [string, { 'zh-CN': string; en: string }][];

/** ASCII words a Chinese text may hold: names and protocol tokens, never English sentences. */
const asciiInChinese = new Set([
  'ShouldRetryUpload',
  'JSON',
  'HTTP',
  'XSRF',
  'Content',
  'Length',
  'application',
  'json',
  'Redis',
  'MD5',
  'UTC',
  'URL',
  'tokens',
  'token',
  'API',
  'Key',
  'SMTP',
  'SMS',
  'PDF',
  'DOCX',
  'Markdown',
  'ZIP',
  'zip',
  'txt',
  'md',
  'SPEC',
  'Webhook',
  'UTF',
  'NUL',
  'MiB',
  'Word',
  'Atrium',
  'http',
  'https',
  'pdf',
  'png',
  'meta',
  'KiB',
  'GiB',
]);

describe('the message catalogue', () => {
  it('holds every message in zh-CN and en, neither empty, with the same placeholders', () => {
    expect(entries.length).toBeGreaterThan(50);
    for (const [key, texts] of entries) {
      expect(texts['zh-CN'].trim(), key).not.toBe('');
      expect(texts.en.trim(), key).not.toBe('');
      expect(placeholdersOf(texts['zh-CN']), key).toEqual(placeholdersOf(texts.en));
    }
  });

  it('puts each key in exactly one part', () => {
    const seen = new Map<string, string>();
    for (const [part, texts] of Object.entries(catalogueParts)) {
      for (const key of Object.keys(texts)) {
        expect(seen.get(key), `${key} is in ${part} and ${seen.get(key)}`).toBeUndefined();
        seen.set(key, part);
      }
    }
    expect(seen.size).toBe(entries.length);
  });

  it('keeps English out of the Chinese texts and Chinese out of the English ones', () => {
    const found: string[] = [];
    for (const [key, texts] of entries) {
      if (/[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/.test(texts.en))
        found.push(`${key}: ${texts.en}`);
      // Placeholders, file extensions (".jpg") and MIME types are not words.
      const bare = texts['zh-CN']
        .replace(/\{\w+\}/g, '')
        .replace(/"[^"]*"/g, '')
        .replace(/\w*_\w*/g, '')
        .replace(/[a-z]+\/[a-z.+-]+/g, '')
        .replace(/\.[A-Za-z0-9]+/g, '');
      const english = (bare.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !asciiInChinese.has(w));
      if (english.length > 0) found.push(`${key}: ${texts['zh-CN']}`);
    }
    expect(found).toEqual([]);
  });

  it("has SPEC's notices word for word", () => {
    expect(catalogue['common.editSuccess'].en).toBe('Edit Success');
    expect(catalogue['common.deleteSuccess'].en).toBe('Delete Success');
    expect(catalogue['common.addSuccess'].en).toBe('Add Success');
    expect(catalogue['http.notLoggedIn'].en).toBe('not logined');
  });

  it('renders parameters, nested messages in the same language, and keeps unknown ones visible', () => {
    const ref = message('validation.tooShort', { field: { key: 'field.password' }, min: 8 });
    expect(render('en', ref)).toBe('Password needs at least 8 characters');
    expect(render('zh-CN', ref)).toBe('密码至少需要 8 个字符');
    expect(render('en', { key: 'no.such.key' })).toBe('no.such.key');
    expect(render('en', { key: 'validation.tooShort', params: { min: 2 } })).toBe(
      '{field} needs at least 2 characters',
    );
  });

  it('names a field in words when the catalogue knows it, else by its path', () => {
    expect(fieldName('username')).toEqual({ key: 'field.username' });
    expect(fieldName('items.3.title')).toEqual({ key: 'field.title' });
    expect(fieldName('options.unheardOf')).toBe('options.unheardOf');
    expect(fieldName('smtp.from')).toEqual({ key: 'field.smtp.from' });
    expect(fieldName('filters.from')).toEqual({ key: 'field.from' });
  });

  it('types the parameters: a missing or unknown one does not compile', () => {
    // @ts-expect-error min is missing
    message('validation.tooShort', { field: 'x' });
    // @ts-expect-error a message without placeholders takes no parameters
    message('common.saveSuccess', { n: 1 });
    expect(message('common.saveSuccess')).toEqual({ key: 'common.saveSuccess' });
  });
});

describe('the language of a request', () => {
  it('is the one the client names, else Accept-Language by q, else the site default', () => {
    expect(pickLanguage('en', 'zh-CN', 'zh-CN')).toBe('en');
    expect(pickLanguage(undefined, 'en-GB,en;q=0.9', 'zh-CN')).toBe('en');
    expect(pickLanguage(undefined, 'zh-TW,zh;q=0.9,en;q=0.8', 'en')).toBe('zh-CN');
    expect(pickLanguage(undefined, 'fr;q=1,en;q=0.5,zh;q=0.8', 'en')).toBe('zh-CN');
    expect(pickLanguage(undefined, 'fr,de', 'en')).toBe('en');
    expect(pickLanguage('xx', undefined, 'zh-CN')).toBe('zh-CN');
    expect(pickLanguage(undefined, 'en;q=0, zh;q=0.1', 'en')).toBe('zh-CN');
  });
});
