import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('returns events as their blocks complete, across chunk boundaries', () => {
    const parser = new SseParser();
    expect(parser.feed('id: 1\nevent: delta\ndata: {"a"')).toEqual([]);
    expect(parser.feed(':1}\n\n: ping\n\nevent: done\r\ndata: {}\r\n\r\nevent: x')).toEqual([
      { event: 'delta', data: '{"a":1}', id: '1' },
      { event: 'done', data: '{}' },
    ]);
    expect(parser.feed('\ndata: one\ndata: two\n\n')).toEqual([{ event: 'x', data: 'one\ntwo' }]);
  });

  it('ignores blocks without data, such as keep-alive comments', () => {
    expect(new SseParser().feed(': ping\n\nevent: delta\n\n')).toEqual([]);
  });
});
