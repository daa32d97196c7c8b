import { describe, expect, it } from 'vitest';
import { SseLines } from './sse-lines.mjs';

/** Feeds `pieces` and answers every event as [event name, data]. */
function parse(...pieces: string[]): [string | undefined, string][] {
  const events: [string | undefined, string][] = [];
  const lines = new SseLines((data, event) => events.push([event, data]));
  for (const piece of pieces) lines.feed(piece);
  return events;
}

describe('SSE lines', () => {
  it('reads events whose lines are split anywhere across pieces', () => {
    const text = 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';
    const whole = parse(text);
    expect(whole).toEqual([
      [undefined, '{"a":1}'],
      [undefined, '{"b":2}'],
      [undefined, '[DONE]'],
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse(text.slice(0, cut), text.slice(cut))).toEqual(whole);
    }
    expect(parse(...text.split(''))).toEqual(whole);
  });

  it('takes CRLF and CR line ends, even a CRLF split between two pieces', () => {
    expect(parse('data: one\r\n\r\ndata: two\r\r')).toEqual([
      [undefined, 'one'],
      [undefined, 'two'],
    ]);
    expect(parse('data: one\r', '\n\r', '\ndata: two\r\n', '\r\n')).toEqual([
      [undefined, 'one'],
      [undefined, 'two'],
    ]);
    // The LF after a CR that ended the last piece ends no second line: both lines are one event.
    expect(parse('data: one\r', '\ndata: two\n\n')).toEqual([[undefined, 'one\ntwo']]);
  });

  it('skips comments and unknown fields, joins multi-line data, keeps the event name', () => {
    expect(
      parse(': keep-alive\n\n', 'id: 7\nretry: 10\nevent: error\ndata: {"x":\ndata:1}\n\n'),
    ).toEqual([['error', '{"x":\n1}']]);
    // The name belongs to its own event only; a field without a colon is a field name.
    expect(parse('event: a\n\ndata\n\ndata:no space\n\n')).toEqual([
      [undefined, ''],
      [undefined, 'no space'],
    ]);
  });

  it('drops an event the stream ends in the middle of', () => {
    expect(parse('data: done\n\n', 'data: unfinished\n')).toEqual([[undefined, 'done']]);
  });
});
