import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  BodyPool,
  ChunkFormError,
  readChunkForm,
  sinkWriteBytes,
  type FileSink,
  type FileTap,
} from './chunk-form';

const limits = { fileSize: 100, fields: 5, fieldSize: 50 };

function read(
  body: string | Buffer,
  boundary = 'XyZ',
  pieceSize = 7,
  length: number | undefined = Buffer.byteLength(body),
) {
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

describe('BodyPool', () => {
  it('hands a released buffer to the next body, though it is a few bytes longer', () => {
    const pool = new BodyPool(2);
    // Chunk 9's body, then chunk 10's, one byte longer.
    const first = pool.take(5 * 1024 * 1024 + 900);
    pool.give(first);
    // (Compared as objects: a failing toBe would print 5 MiB of bytes.)
    expect(pool.take(5 * 1024 * 1024 + 901) === first, 'the released buffer').toBe(true);
    // Nothing free: a new one.
    expect(pool.take(100) === first).toBe(false);
  });
});

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
    [
      'no boundary',
      () => readChunkForm(Readable.from([]), { 'content-type': 'multipart/form-data' }, limits),
      /boundary/,
    ],
    ['no part', () => read('just text'), /no multipart part/],
    ['an unclosed part', () => read(`${part('chunk', '1')}`), /not closed/],
    [
      'two files',
      () => read(`${part('file', 'a', 'x')}${part('file', 'b', 'y')}--XyZ--`),
      /one chunk per request/,
    ],
    [
      'a file under another name',
      () => read(`${part('upload', 'a', 'x')}--XyZ--`),
      /^upload: unexpected file part/,
    ],
    ['a long field', () => read(`${part('name', 'n'.repeat(51))}--XyZ--`), /^name: too long/],
    [
      'too many fields',
      () => read(`${['a', 'b', 'c', 'd', 'e', 'f'].map((n) => part(n, '1')).join('')}--XyZ--`),
      /too many/,
    ],
    [
      'a body shorter than declared',
      () => read(`${part('a', '1')}--XyZ--`, 'XyZ', 7, 999),
      /shorter/,
    ],
  ])('refuses %s', async (_name, run, message) => {
    await expect(run()).rejects.toThrow(message);
  });

  it('flags a file over the limit as too large', async () => {
    const big = await read(`${part('file', 'x'.repeat(101), 'blob')}--XyZ--`).catch(
      (error: unknown) => error,
    );
    expect(big).toBeInstanceOf(ChunkFormError);
    expect((big as ChunkFormError).tooLarge).toBe(true);
    const declared = await read('x', 'XyZ', 7, 10_000_000).catch((error: unknown) => error);
    expect((declared as ChunkFormError).tooLarge).toBe(true);
  });
});

/** A sink that keeps what it is given in memory, as the staging file would on disk. */
class MemorySink implements FileSink {
  readonly bytes: Buffer;
  readonly writes: Array<[at: number, length: number]> = [];
  closed = 0;

  constructor(
    readonly length: number,
    private readonly failAt?: number,
  ) {
    this.bytes = Buffer.alloc(length);
  }

  async write(data: Buffer, at: number): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failAt !== undefined && at >= this.failAt) throw new Error('disk full');
    if (at + data.length > this.length) throw new Error('outside the sink');
    this.writes.push([at, data.length]);
    data.copy(this.bytes, at);
  }

  async close(): Promise<void> {
    this.closed += 1;
  }
}

describe('readChunkForm with a tap', () => {
  const big = { fileSize: 4 * 1024 * 1024, fields: 5, fieldSize: 50 };
  const file = Buffer.from(
    Array.from({ length: 2 * sinkWriteBytes + 300 * 1024 }, (_, i) => (i * 7) % 251),
  );

  function tapped(
    body: Buffer,
    open: (fields: Record<string, string>) => FileSink | undefined,
    pieceSize = 64 * 1024,
  ) {
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.length; i += pieceSize) pieces.push(body.subarray(i, i + pieceSize));
    const seen: Array<Record<string, string>> = [];
    const tap: FileTap = {
      open: async (fields) => {
        seen.push(fields);
        return open(fields);
      },
    };
    const headers = {
      'content-type': 'multipart/form-data; boundary=XyZ',
      'content-length': String(body.length),
    };
    return { seen, form: readChunkForm(Readable.from(pieces), headers, big, tap) };
  }
  const fileHead = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n\r\n';
  const body = (content: Buffer, after = '--XyZ--\r\n') =>
    Buffer.concat([
      Buffer.from(`${part('chunk', '3')}${part('md5', 'abc')}${fileHead}`),
      content,
      Buffer.from(`\r\n${after}`),
    ]);

  it('hands the file to the sink while the body arrives, in order, and says so', async () => {
    const sink = new MemorySink(file.length);
    const { seen, form } = tapped(body(file), () => sink);
    const result = await form;
    expect(seen).toEqual([{ chunk: '3', md5: 'abc' }]);
    expect(result.written).toBe(sink);
    expect(sink.bytes.equals(file)).toBe(true);
    expect(result.file?.equals(file)).toBe(true);
    // Several writes (not one at the end), none smaller than the batch size but the last.
    expect(sink.writes.length).toBeGreaterThan(1);
    expect(sink.writes.slice(0, -1).every(([, length]) => length >= sinkWriteBytes)).toBe(true);
    expect(sink.closed).toBe(1);
    result.release();
  });

  it('also without the final CRLF of the closing delimiter', async () => {
    const sink = new MemorySink(file.length);
    const result = await tapped(body(file, '--XyZ--'), () => sink).form;
    expect(result.written).toBe(sink);
    result.release();
  });

  it.each([
    ['one byte short', file.subarray(1)],
    ['one byte long', Buffer.concat([file, Buffer.from('x')])],
  ])('writes nothing for a file %s: the body length gives it away', async (_name, content) => {
    const sink = new MemorySink(file.length);
    const result = await tapped(body(content), () => sink).form;
    expect(sink.writes).toEqual([]);
    expect(sink.closed).toBe(1);
    expect(result.written).toBeUndefined();
    expect(result.file?.length).toBe(content.length);
    result.release();
  });

  it('writes nothing when a field follows the file', async () => {
    const sink = new MemorySink(file.length);
    const result = await tapped(body(file, `${part('name', 'x')}--XyZ--\r\n`), () => sink).form;
    expect(result.fields).toEqual({ chunk: '3', md5: 'abc', name: 'x' });
    expect(sink.writes).toEqual([]);
    expect(result.written).toBeUndefined();
    result.release();
  });

  it('does not count bytes whose body turns out malformed, and still closes the sink', async () => {
    const sink = new MemorySink(file.length);
    const broken = body(file);
    broken.write('!!', broken.length - 9);
    await expect(tapped(broken, () => sink).form).rejects.toThrow(ChunkFormError);
    expect(sink.closed).toBe(1);
  });

  it('does not count a write that failed', async () => {
    const sink = new MemorySink(file.length, sinkWriteBytes);
    const result = await tapped(body(file), () => sink).form;
    expect(result.written).toBeUndefined();
    expect(result.file?.equals(file)).toBe(true);
    expect(sink.closed).toBe(1);
    result.release();
  });

  it('leaves the file in the buffer when the tap opens no sink', async () => {
    const result = await tapped(body(file), () => undefined).form;
    expect(result.written).toBeUndefined();
    expect(result.file?.equals(file)).toBe(true);
    result.release();
  });
});
