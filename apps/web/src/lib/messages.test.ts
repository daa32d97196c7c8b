import { describe, expect, it } from 'vitest';
import { catalogue } from '@atrium/shared/messages/catalogue';
import { setLanguage } from './i18n';
import { failureRef, messageRef, storedText } from './messages';

describe('server messages by key', () => {
  it('renders a stored text from its key and parameters in the page language', () => {
    const params = { field: { key: 'field.username' }, min: 3 };
    setLanguage('zh-CN');
    const zh = storedText('words as sent', 'validation.tooShort', params);
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(zh).toContain('3');
    setLanguage('en');
    const en = storedText('words as sent', 'validation.tooShort', params);
    expect(en).not.toMatch(/[\u4e00-\u9fff]/);
    expect(en).toContain('3');
  });

  it('takes a stored text that is itself a key as that message', () => {
    setLanguage('zh-CN');
    expect(storedText('http.noPermission')).toBe(catalogue['http.noPermission']['zh-CN']);
  });

  it('shows the text as sent when no known key comes with it', () => {
    expect(storedText('as sent')).toBe('as sent');
    expect(storedText('as sent', 'no.suchKey', { a: 1 })).toBe('as sent');
    expect(storedText('as sent', undefined, undefined)).toBe('as sent');
  });

  it('reads a failure data only when it names a catalogue key, and drops odd parameters', () => {
    expect(failureRef({ error: 'http.noPermission' })).toEqual({ key: 'http.noPermission' });
    expect(failureRef({ error: 'nope' })).toBeUndefined();
    expect(failureRef('http.noPermission')).toBeUndefined();
    expect(failureRef(null)).toBeUndefined();
    expect(
      messageRef('validation.tooShort', { min: 3, bad: [1], nested: { key: 'field.url' } }),
    ).toEqual({ key: 'validation.tooShort', params: { min: 3, nested: { key: 'field.url' } } });
  });
});
