import { describe, expect, it } from 'vitest';
import { dispositionName } from './export-conversations';

describe('the name of a downloaded export', () => {
  it('is the UTF-8 name when the server gives one', () => {
    expect(
      dispositionName(
        `attachment; filename="____.json"; filename*=UTF-8''${encodeURIComponent('季度总结')}.json`,
      ),
    ).toBe('季度总结.json');
  });

  it('falls back to the plain name, and is undefined for an answer that is no file', () => {
    expect(dispositionName('attachment; filename="notes.md"')).toBe('notes.md');
    expect(dispositionName('attachment; filename="x.md"; filename*=UTF-8\'\'%E5%ZZ')).toBe('x.md');
    expect(dispositionName(null)).toBeUndefined();
  });
});
