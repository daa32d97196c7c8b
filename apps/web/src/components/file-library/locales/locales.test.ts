import { describe, expect, it } from 'vitest';
import { filesEn } from './en';
import { filesZhCN } from './zh-cn';

describe('file library texts', () => {
  it('carries the SPEC texts word for word (SPEC 2.4, 4.4 and the message table)', () => {
    expect(filesEn['files.selectAtMost']).toBe('Select {{n}} item(s) at most');
    expect(filesEn['files.selectorNotConfigured']).toBe(
      'Please configure window.__selectorDialogServer first',
    );
    expect(filesEn['files.reverseSelectOrder']).toBe('Reverse Select Order');
    expect(filesEn['files.uploadError']).toBe('Upload Error : {{error}}');
    expect(filesEn['files.serverError']).toBe('Server Error');
    expect(filesZhCN['files.badType']).toBe('文件类型不合法（只能上传{{extensions}}文件）');
  });

  it('has every text in both languages with the same placeholders', () => {
    const holes = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const key of Object.keys(filesZhCN) as (keyof typeof filesZhCN)[]) {
      expect(filesEn[key], key).toBeTruthy();
      expect(holes(filesEn[key]), key).toEqual(holes(filesZhCN[key]));
    }
  });
});
