import { describe, expect, it } from 'vitest';
import type { AdminRoomRecord } from '@atrium/shared/contract/chat';
import { parseParams } from './room-editor';
import { filterRooms } from './rooms-grid';
import { moveRoom } from './rooms-table';
import { htmlToText } from './rich-text';

const room = (id: number) => ({ id }) as AdminRoomRecord;

describe('rooms', () => {
  it('finds rooms by title or description text, ignoring case', () => {
    const rooms = [
      { title: 'Story studio', excerpt: 'Short stories' },
      { title: 'Code helper', excerpt: 'Answers with code' },
    ];
    expect(filterRooms(rooms, 'CODE').map((r) => r.title)).toEqual(['Code helper']);
    expect(filterRooms(rooms, 'stories').map((r) => r.title)).toEqual(['Story studio']);
    expect(filterRooms(rooms, '  ')).toHaveLength(2);
  });

  it('reads description HTML as plain text', () => {
    expect(htmlToText('<p>Hi <b>there</b></p><p>again</p>')).toBe('Hi thereagain');
    expect(htmlToText('')).toBe('');
  });

  it('moves a room one place and keeps the others in order', () => {
    const rooms = [room(1), room(2), room(3)];
    expect(moveRoom(rooms, 2, -1)).toEqual([1, 3, 2]);
    expect(moveRoom(rooms, 0, 1)).toEqual([2, 1, 3]);
    expect(moveRoom(rooms, 0, -1)).toEqual([1, 2, 3]);
  });

  it('accepts generation parameters only as a JSON object', () => {
    expect(parseParams('{"temperature": 0.5}')).toEqual({ temperature: 0.5 });
    expect(parseParams('')).toEqual({});
    expect(parseParams('[1]')).toBeUndefined();
    expect(parseParams('{oops')).toBeUndefined();
  });
});
