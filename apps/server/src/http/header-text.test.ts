import { describe, expect, it } from 'vitest';
import { headerText } from './header-text';

describe('headerText', () => {
  it('keeps ordinary text as it is', () => {
    expect(headerText('Mozilla/5.0 (X11; Linux x86_64) ü 😀', 500)).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) ü 😀',
    );
    expect(headerText(undefined, 10)).toBe('');
  });

  it('drops control characters and replaces unpaired surrogates', () => {
    expect(headerText('a\u0000b\u001fc\u007fd', 100)).toBe('abcd');
    expect(headerText('a\ud800b\udc00c', 100)).toBe('a\ufffdb\ufffdc');
  });

  it('cuts to the limit without splitting a surrogate pair', () => {
    expect(headerText('abcdef', 4)).toBe('abcd');
    expect(headerText('abc😀', 4)).toBe('abc');
    expect(headerText('ab😀', 4)).toBe('ab😀');
  });
});
