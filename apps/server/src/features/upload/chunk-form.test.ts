import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChunkFormError, readChunkForm } from './chunk-form';

const limits = { fileSize: 100, fields: 5, fieldSize: 50 };

function read(body: string | Buffer, boundary = 'XyZ', pieceSize = 7, length: number | undefined = Buffer.byteLength(body)) {
  const bytes = Buffer.from(body);
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += pieceSize) pieces.push(bytes.subarray(i, i + pieceSize));
  const headers = {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    ...(length === undefined ? {} : { 'content-length': String(length) }),
  };
  return readChunkForm(Readable.from(pieces), headers, limits);
}

const part = (name: string, value: string, filename?: string) =>
  `--XyZ\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${
    filename ? 'Content-Type: application/octet-stream\r\n' : ''
  }\r\n${value}\r\n`;

describe('readChunkForm', () => {
  it('reads fields before and after the file, in pieces, with or without a Content-Length', async () => {
    const body = `${part('chunk', '2')}${part('file', 'binary\r\n--XY data', 'blob')}${part('md5', 'abc')}--XyZ--\r\n`;
    for (const length of [Buffer.byteLength(body), undefined]) {
      const form = await read(body, 'XyZ', 7, length);
      expect(form.fields).toEqual({ chunk: '2', md5: 'abc' });
      expect(form.file?.toString()).toBe('binary\r\n--XY data');
    }
  });

  it('takes a quoted boundary and an empty file', async () => {
    const form = await readChunkForm(
      Readable.from([Buffer.from(`${part('file', '', 'blob')}--XyZ--`)]),
      { 'content-type': 'multipart/form-data; boundary="XyZ"' },
      limits,
    );
    expect(form.file?.length).toBe(0);
  });

  it.each([
    ['no boundary', () => readChunkForm(Readable.from([]), { 'content-type': 'multipart/form-data' }, limits), /boundary/],
    ['no part', () => read('just text'), /no multipart part/],
    ['an unclosed part', () => read(`${part('chunk', '1')}`), /not closed/],
    ['two files', () => read(`${part('file', 'a', 'x')}${part('file', 'b', 'y')}--XyZ--`), /one chunk per request/],
    ['a file under another name', () => read(`${part('upload', 'a', 'x')}--XyZ--`), /^upload: unexpected file part/],
    ['a long field', () => read(`${part('name', 'n'.repeat(51))}--XyZ--`), /^name: too long/],
    ['too many fields', () => read(`${['a', 'b', 'c', 'd', 'e', 'f'].map((n) => part(n, '1')).join('')}--XyZ--`), /too many/],
    ['a body shorter than declared', () => read(`${part('a', '1')}--XyZ--`, 'XyZ', 7, 999), /shorter/],
  ])('refuses %s', async (_name, run, message) => {
    await expect(run()).rejects.toThrow(message);
  });

  it('flags a file over the limit as too large', async () => {
    const big = await read(`${part('file', 'x'.repeat(101), 'blob')}--XyZ--`).catch((error: unknown) => error);
    expect(big).toBeInstanceOf(ChunkFormError);
    expect((big as ChunkFormError).tooLarge).toBe(true);
    const declared = await read('x', 'XyZ', 7, 10_000_000).catch((error: unknown) => error);
    expect((declared as ChunkFormError).tooLarge).toBe(true);
  });
});
