import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAll } from './read-all';

describe('readAll', () => {
  it('joins every part of the stream, bytes or strings', async () => {
    const bytes = await readAll(Readable.from([Buffer.from('ab'), Buffer.from('cd'), 'ef']));
    expect(bytes.toString()).toBe('abcdef');
  });

  it('reads up to the limit and gives up past it, destroying the stream', async () => {
    expect((await readAll(Readable.from([Buffer.from('abc')]), 3))?.toString()).toBe('abc');
    const stream = Readable.from([Buffer.from('ab'), Buffer.from('cd'), Buffer.from('ef')]);
    expect(await readAll(stream, 3)).toBeUndefined();
    expect(stream.destroyed).toBe(true);
  });
});
