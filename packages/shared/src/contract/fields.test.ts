import { describe, expect, it } from 'vitest';
import {
  bigIntField,
  decimalField,
  int32Max,
  int32Min,
  intField,
  intOrDigitsField,
  nulMessage,
  recordId,
  recordIdOrZero,
  surrogateMessage,
  textField,
  textProblem,
} from './fields';
import { chunkFields, fileManagerRequest, initRequest } from './files';

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('textField', () => {
  it('takes any text a person can type, emoji and all', () => {
    for (const text of ['', 'plain', 'ünïcødé', '漢字', '😀 pair', 'tab\tand\nnewline']) {
      expect(textField().safeParse(text).success, text).toBe(true);
      expect(textProblem(text)).toBeUndefined();
    }
  });

  it('refuses NUL anywhere, first, whatever else the field checks', () => {
    const field = textField().trim().min(1).max(3);
    expect(messages(field.safeParse('a\u0000b'))).toEqual([nulMessage]);
    expect(messages(field.safeParse('\u0000'))[0]).toBe(nulMessage);
    expect(textProblem('end\u0000')).toBe(nulMessage);
  });

  it('refuses an unpaired surrogate, which UTF-8 cannot carry', () => {
    expect(messages(textField().safeParse('a\ud800b'))).toEqual([surrogateMessage]);
    expect(messages(textField().safeParse('\udc00'))).toEqual([surrogateMessage]);
    expect(messages(textField().safeParse('\ude00\ud83d'))).toEqual([surrogateMessage]);
  });
});

describe('number fields', () => {
  it('ids run from 1 (or 0) to the top of a PostgreSQL integer', () => {
    expect(recordId.safeParse(int32Max).success).toBe(true);
    expect(messages(recordId.safeParse(int32Max + 1))).toEqual([
      'expected an id of at most 2147483647',
    ]);
    expect(messages(recordId.safeParse(0))).toEqual(['expected an id']);
    expect(recordIdOrZero.safeParse(0).success).toBe(true);
    expect(recordIdOrZero.safeParse(-1).success).toBe(false);
  });

  it('refuse fractions, unsafe integers and what JSON turns into Infinity', () => {
    for (const field of [recordId, intField(int32Min, int32Max), bigIntField(0)]) {
      for (const value of [1.5, 2 ** 53, 1e300, Infinity, Number.NaN, '1']) {
        expect(field.safeParse(value).success, String(value)).toBe(false);
      }
    }
    expect(messages(intField(1, 10).safeParse(11))).toEqual(['expected at most 10']);
    expect(messages(intField(1, 10).safeParse(0.5))[0]).toBe('expected a whole number');
  });

  it('bigint fields take what an integer column cannot, up to 2^53 - 1', () => {
    expect(bigIntField(0).safeParse(int32Max + 1).success).toBe(true);
    expect(bigIntField(0).safeParse(Number.MAX_SAFE_INTEGER).success).toBe(true);
    expect(bigIntField(0).safeParse(-1).success).toBe(false);
  });

  it('decimal fields take fractions inside their bounds', () => {
    expect(decimalField(0, 2).safeParse(0.7).success).toBe(true);
    expect(decimalField(0, 2).safeParse(1e300).success).toBe(false);
  });

  it('bounds that do not fit the column are a mistake caught at start-up', () => {
    expect(() => intField(0, int32Max + 1)).toThrow(RangeError);
    expect(() => bigIntField(0, 2 ** 53)).toThrow(RangeError);
    expect(() => intField(5, 1)).toThrow(RangeError);
  });

  it('a number or a string of digits, bounded after reading', () => {
    const field = intOrDigitsField(0, int32Max);
    expect(field.safeParse('42').data).toBe(42);
    expect(field.safeParse(42).data).toBe(42);
    expect(messages(field.safeParse('2147483648'))).toEqual(['expected at most 2147483647']);
    expect(messages(field.safeParse('999999999999999'))).toEqual(['expected at most 2147483647']);
    expect(field.safeParse('4\u00002').success).toBe(false);
    expect(field.safeParse('-1').success).toBe(false);
  });
});

describe('the file manager schemas', () => {
  it('keep ids of every form inside integer range', () => {
    const list = (id: unknown) => fileManagerRequest.safeParse({ action: 'fileDelete', id });
    expect(list('1,2,3').data).toEqual({ action: 'fileDelete', id: [1, 2, 3] });
    expect(list([4, 5]).data).toEqual({ action: 'fileDelete', id: [4, 5] });
    expect(list('1,2147483648').success).toBe(false);
    expect(list([2147483648]).success).toBe(false);
    expect(list(2147483648).success).toBe(false);
    const category = (categoryId: unknown) =>
      fileManagerRequest.safeParse({ action: 'list', page: 1, categoryId });
    expect(category('7').success).toBe(true);
    expect(category('2147483648').success).toBe(false);
  });

  it('take a file of more than 2 GiB, but not a size past 2^53', () => {
    const init = (size: number) =>
      initRequest.safeParse({
        action: 'init',
        name: 'big.mp4',
        size,
        md5: 'd41d8cd98f00b204e9800998ecf8427e',
      });
    expect(init(3 * 1024 ** 3).success).toBe(true);
    expect(init(2 ** 53).success).toBe(false);
  });

  it('refuse NUL in chunk fields', () => {
    const fields = { name: 'a.png', size: '1', chunks: '1', chunk: '0', md5: 'x' };
    expect(chunkFields.safeParse(fields).success).toBe(true);
    expect(chunkFields.safeParse({ ...fields, chunk: '0\u0000' }).success).toBe(false);
  });
});
