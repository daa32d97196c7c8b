import { describe, expect, it } from 'vitest';
import {
  checkFile,
  chunkCount,
  fallbackUploadRule,
  fileExtension,
  fileKey,
  pendingChunks,
  ruleFor,
} from './upload-rules';

describe('upload checks', () => {
  const rule = { extensions: ['pdf', 'PNG'], maxSize: 100 };

  it('accepts an allowed extension in any case within maxSize', () => {
    expect(checkFile({ name: 'Report.PDF', size: 100 }, rule)).toBeNull();
    expect(checkFile({ name: 'a.png', size: 1 }, rule)).toBeNull();
  });

  it('refuses other extensions and names without one', () => {
    expect(checkFile({ name: 'a.exe', size: 1 }, rule)).toEqual({
      kind: 'type',
      extensions: ['pdf', 'PNG'],
    });
    expect(checkFile({ name: 'pdf', size: 1 }, rule)?.kind).toBe('type');
    expect(checkFile({ name: 'a.pdf.', size: 1 }, rule)?.kind).toBe('type');
  });

  it('refuses a file over maxSize', () => {
    expect(checkFile({ name: 'a.pdf', size: 101 }, rule)).toEqual({ kind: 'size', maxSize: 100 });
  });

  it('falls back to SPEC 9 limits only when no configuration is known', () => {
    expect(ruleFor(undefined, 'file')).toEqual({
      extensions: ['gif', 'jpg', 'png', 'jpeg'],
      maxSize: 2097152,
    });
    expect(fallbackUploadRule.maxSize).toBe(2 * 1024 * 1024);
    const config = { chunkSize: 10, category: { file: { extensions: ['txt'], maxSize: 5 } } };
    expect(ruleFor(config, 'file')).toEqual({ extensions: ['txt'], maxSize: 5 });
    expect(ruleFor(config, 'video')).toEqual({ extensions: [], maxSize: 0 });
  });

  it('reads extensions', () => {
    expect(fileExtension('x.tar.GZ')).toBe('gz');
    expect(fileExtension('noext')).toBe('');
  });

  it('identifies the same file by name, size and modification time', () => {
    const a = { name: 'a.pdf', size: 3, lastModified: 1 };
    expect(fileKey(a)).toBe(fileKey({ ...a }));
    expect(fileKey(a)).not.toBe(fileKey({ ...a, lastModified: 2 }));
  });
});

describe('chunk plans', () => {
  it('counts chunks as the server does', () => {
    expect(chunkCount(10, 5)).toBe(2);
    expect(chunkCount(11, 5)).toBe(3);
    expect(chunkCount(0, 5)).toBe(1);
  });

  it('skips every chunk below chunkUploaded', () => {
    expect(pendingChunks(11, 5, 0).map((c) => [c.index, c.start, c.end])).toEqual([
      [0, 0, 5],
      [1, 5, 10],
      [2, 10, 11],
    ]);
    expect(pendingChunks(11, 5, 2).map((c) => c.index)).toEqual([2]);
    expect(pendingChunks(11, 5, 3)).toEqual([]);
    expect(pendingChunks(11, 5, 99)).toEqual([]);
  });
});
