import { describe, expect, it } from 'vitest';
import { StreamEventReader } from './stream-events';

describe('StreamEventReader', () => {
  it('returns each declared event with its data checked, across chunk boundaries', () => {
    const reader = new StreamEventReader();
    expect(reader.feed('id: 1\nevent: delta\ndata: {"seq":1,"offset":0,')).toEqual([]);
    expect(
      reader.feed(
        '"text":"hi"}\n\n: ping\n\nevent: done\ndata: {"status":"stopped","usage":{"promptTokens":3,"completionTokens":1,"estimated":true}}\n\n',
      ),
    ).toEqual([
      { event: 'delta', data: { seq: 1, offset: 0, text: 'hi' } },
      {
        event: 'done',
        data: {
          status: 'stopped',
          usage: { promptTokens: 3, completionTokens: 1, estimated: true },
        },
      },
    ]);
    expect(
      reader.feed('event: error\ndata: {"status":"interrupted","msg":"The server restarted"}\n\n'),
    ).toEqual([{ event: 'error', data: { status: 'interrupted', msg: 'The server restarted' } }]);
  });

  it('skips events the contract does not name', () => {
    expect(new StreamEventReader().feed('event: progress\ndata: {"n":1}\n\n')).toEqual([]);
  });

  it('refuses a declared event whose data the contract does not allow', () => {
    expect(() =>
      new StreamEventReader().feed('event: delta\ndata: {"seq":1,"offset":-1,"text":"x"}\n\n'),
    ).toThrow();
    expect(() =>
      new StreamEventReader().feed('event: done\ndata: {"status":"streaming","usage":{}}\n\n'),
    ).toThrow();
    expect(() => new StreamEventReader().feed('event: error\ndata: not json\n\n')).toThrow();
  });
});
