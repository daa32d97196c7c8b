import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { finishedMessage } from '@atrium/shared/testing/messages';
import { applyDelta } from '../hooks/use-answer-streams';
import { appendMessages, flattenPages, updateMessage, type MessagePages } from './list-messages';

const message = (id: number, content = `m${id}`): MessageRecord => ({
  id,
  conversationId: 1,
  role: id % 2 ? 'user' : 'assistant',
  content,
  ...finishedMessage(),
});

const pages: MessagePages = {
  pages: [
    { records: [message(5), message(6)], hasMore: true },
    { records: [message(3), message(4)], hasMore: false },
  ],
  pageParams: [undefined, 5],
};

describe('message pages', () => {
  it('flattens newest-first pages into one list, oldest first', () => {
    expect(flattenPages(pages).map((m) => m.id)).toEqual([3, 4, 5, 6]);
  });

  it('replaces one message and keeps every other object, so untouched bubbles do not re-render', () => {
    const next = updateMessage(pages, 4, (m) => ({ ...m, content: 'changed' }));
    expect(flattenPages(next).map((m) => m.content)).toEqual(['m3', 'changed', 'm5', 'm6']);
    expect(next?.pages[0]).toBe(pages.pages[0]);
    expect(updateMessage(pages, 99, (m) => ({ ...m }))).toBe(pages);
  });

  it('appends sent messages to the newest page once', () => {
    const next = appendMessages(pages, [message(7), message(8)]);
    expect(flattenPages(appendMessages(next, [message(8)])).map((m) => m.id)).toEqual([
      3, 4, 5, 6, 7, 8,
    ]);
    expect(flattenPages(appendMessages(undefined, [message(1)])).map((m) => m.id)).toEqual([1]);
  });
});

describe('applyDelta', () => {
  it('appends at the end, ignores repeats, takes only the new part of an overlap, and reports gaps', () => {
    expect(applyDelta('Hello', { seq: 2, offset: 5, text: ' world' })).toBe('Hello world');
    expect(applyDelta('Hello world', { seq: 2, offset: 5, text: ' world' })).toBe('Hello world');
    expect(applyDelta('Hello wo', { seq: 2, offset: 5, text: ' world' })).toBe('Hello world');
    expect(applyDelta('Hel', { seq: 2, offset: 5, text: ' world' })).toBeUndefined();
  });
});
