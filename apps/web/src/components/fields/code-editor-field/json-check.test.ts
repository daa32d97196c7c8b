import { describe, expect, it } from 'vitest';
import { checkJson, lineColumn } from './json-check';

describe('checkJson', () => {
  it('accepts valid JSON and empty text', () => {
    expect(checkJson('{"a": [1, 2, {"b": null}]}')).toBeNull();
    expect(checkJson('  ')).toBeNull();
    expect(checkJson('42')).toBeNull();
  });

  it('says on which line and column the text breaks', () => {
    const error = checkJson('{\n  "a": 1,\n  "b": 2,\n}');
    expect(error).toMatchObject({ line: 4, column: 1 });
    expect(error?.message).not.toMatch(/position/);
    expect(checkJson('{"a": tru}')).toMatchObject({ line: 1 });
  });

  it('points at the end when the text stops early', () => {
    expect(checkJson('{"a": [1, 2')).toMatchObject({ line: 1, column: 12 });
  });
});

describe('lineColumn', () => {
  it('counts from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
