import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from '@testing-library/react';
import type { DocumentRecord } from '@atrium/shared/contract/chat-docs';
import { renderWithProviders } from '@/test-utils/render';
import { DocumentsAnnouncer } from './documents-announcer';

const doc = (over: Partial<DocumentRecord>): DocumentRecord => ({
  id: 1,
  conversationId: 5,
  path: '/data/file/0123456789abcdef01234567/a.pdf',
  name: 'a.pdf',
  ext: 'pdf',
  status: 'queued',
  progress: 0,
  pages: 0,
  passages: 0,
  error: '',
  createdAt: 0,
  ...over,
});

const polite = () => document.querySelector('[data-announcer="polite"]');
/** What the region holds once its words are written (a moment after they are asked for). */
const heard = () => {
  act(() => {
    vi.runOnlyPendingTimers();
  });
  return polite()?.textContent ?? '';
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('how reading documents is announced', () => {
  it('says a document added, each quarter of its reading and ready; not what was there', () => {
    const view = renderWithProviders(
      <DocumentsAnnouncer conversationId={5} documents={undefined} />,
    );
    const old = doc({ id: 9, name: 'old.pdf', status: 'done', pages: 3 });
    const say = (documents: DocumentRecord[]) =>
      view.rerender(<DocumentsAnnouncer conversationId={5} documents={documents} />);
    say([old]);
    // The region is in the page before anything is said, and the loaded list says nothing.
    expect(polite()).toHaveAttribute('aria-live', 'polite');
    expect(heard()).toBe('');
    say([old, doc({})]);
    expect(heard()).toBe('a.pdf: 等待读取');
    say([old, doc({ status: 'running', progress: 30 })]);
    expect(heard()).toBe('a.pdf: 读取中 30%');
    // Within the same quarter: nothing new is said.
    say([old, doc({ status: 'running', progress: 40 })]);
    expect(heard()).toBe('a.pdf: 读取中 30%');
    say([old, doc({ status: 'done', progress: 100, pages: 12 })]);
    expect(heard()).toBe('a.pdf: 已就绪 · 12 页');
  });

  it('says nothing of the documents of another conversation opened', () => {
    const view = renderWithProviders(
      <DocumentsAnnouncer conversationId={5} documents={[doc({ name: 'mine.pdf' })]} />,
    );
    view.rerender(
      <DocumentsAnnouncer conversationId={6} documents={[doc({ id: 2, name: 'other.pdf' })]} />,
    );
    expect(heard()).not.toContain('other.pdf');
  });
});
