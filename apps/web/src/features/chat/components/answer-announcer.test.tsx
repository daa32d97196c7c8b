import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { setLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/test-utils/render';
import { AnswerAnnouncer } from './answer-announcer';
import { plainText } from './spoken-answer';

const message = (fields: Partial<MessageRecord>): MessageRecord => ({
  id: 2,
  conversationId: 1,
  role: 'assistant',
  content: '',
  images: [],
  status: 'streaming',
  promptTokens: 0,
  completionTokens: 0,
  tokensEstimated: false,
  createdAt: 0,
  updatedAt: 0,
  ...fields,
  error: fields.error ?? '',
});
/** No answer started by the page: a conversation only watched or opened. */
const none: ReadonlySet<number> = new Set();
const question = message({ id: 1, role: 'user', content: 'Tell me a story', status: 'done' });

/** The region, and every text it was given (a screen reader speaks each change once). */
function watch() {
  const region = screen.getByTestId('answer-announcer');
  const spoken: string[] = [];
  // Every write, even several between two observer calls.
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node.textContent) spoken.push(node.textContent);
      if (record.type === 'characterData' && record.target.textContent)
        spoken.push(record.target.textContent);
    }
  });
  observer.observe(region, { childList: true, characterData: true, subtree: true });
  return { region, spoken, stop: () => observer.disconnect() };
}

afterEach(() => act(() => setLanguage('zh-CN')));

describe('the answer live region', () => {
  it('is polite and reads the settled answer exactly once, not its tokens', async () => {
    const view = renderWithProviders(
      <AnswerAnnouncer started={none} messages={[question, message({ content: 'Once' })]} />,
    );
    const { region, spoken, stop } = watch();
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.getAttribute('aria-atomic')).toBe('true');
    // Tokens arrive: nothing is said while it is written.
    for (const content of ['Once upon', 'Once upon a **time**', 'Once upon a **time**, a fox.']) {
      view.rerender(<AnswerAnnouncer started={none} messages={[question, message({ content })]} />);
    }
    await act(() => Promise.resolve());
    expect(spoken).toEqual([]);
    const done = message({ content: '## Fable\nOnce upon a **time**, a fox.', status: 'done' });
    view.rerender(<AnswerAnnouncer started={none} messages={[question, done]} />);
    // Re-rendered with the same answer, its citations added, then another version shown and
    // this one shown again: still said once.
    view.rerender(<AnswerAnnouncer started={none} messages={[question, { ...done }]} />);
    view.rerender(
      <AnswerAnnouncer started={none} messages={[question, { ...done, citations: [] }]} />,
    );
    const other = message({ id: 3, content: 'Another fable', status: 'done' });
    view.rerender(<AnswerAnnouncer started={none} messages={[question, other]} />);
    view.rerender(<AnswerAnnouncer started={none} messages={[question, done]} />);
    await act(() => Promise.resolve());
    stop();
    expect(spoken).toEqual(['Fable Once upon a time, a fox.']);
    expect(region.textContent).toBe('Fable Once upon a time, a fox.');
  });

  it('says nothing for answers already settled when the conversation opens', async () => {
    const view = renderWithProviders(
      <AnswerAnnouncer
        started={none}
        messages={[question, message({ content: 'Old', status: 'done' })]}
      />,
    );
    const { region, spoken, stop } = watch();
    view.rerender(
      <AnswerAnnouncer
        started={none}
        messages={[question, message({ content: 'Old', status: 'done' })]}
      />,
    );
    await act(() => Promise.resolve());
    stop();
    expect(spoken).toEqual([]);
    expect(region.textContent).toBe('');
  });

  it('says how a stopped or failed answer ended, in the language on screen', async () => {
    act(() => setLanguage('en'));
    const view = renderWithProviders(
      <AnswerAnnouncer started={none} messages={[question, message({ content: 'Half' })]} />,
    );
    const { spoken, stop } = watch();
    view.rerender(
      <AnswerAnnouncer
        started={none}
        messages={[question, message({ content: 'Half', status: 'stopped' })]}
      />,
    );
    view.rerender(
      <AnswerAnnouncer
        started={none}
        messages={[question, message({ id: 4, content: '', status: 'streaming' })]}
      />,
    );
    view.rerender(
      <AnswerAnnouncer
        started={none}
        messages={[question, message({ id: 4, status: 'error', error: 'The model is busy' })]}
      />,
    );
    await act(() => Promise.resolve());
    stop();
    expect(spoken).toEqual(['Half Stopped', 'The answer failed The model is busy']);
  });

  it('does not read an answer that was switched away from while it was written', async () => {
    const view = renderWithProviders(
      <AnswerAnnouncer started={none} messages={[question, message({ content: 'Wri' })]} />,
    );
    const { spoken, stop } = watch();
    view.rerender(
      <AnswerAnnouncer started={none} messages={[question, message({ id: 3, status: 'done' })]} />,
    );
    view.rerender(
      <AnswerAnnouncer
        started={none}
        messages={[question, message({ content: 'Written', status: 'done' })]}
      />,
    );
    await act(() => Promise.resolve());
    stop();
    expect(spoken).toEqual([]);
  });
});

describe('an answer the page started', () => {
  // Written long after the page opened, by the server's clock: the announcer goes by what the
  // page started, not by clocks (a browser's may be minutes off the server's).
  const later = Date.now() + 3_600_000;

  it('is read once when it first shows already settled, whenever the page learns it started it', async () => {
    const quick = message({ id: 5, content: 'Quick', status: 'done', createdAt: later });
    const view = renderWithProviders(
      <AnswerAnnouncer started={none} messages={[question, quick]} />,
    );
    const { spoken, stop } = watch();
    // Shown before the send's answer arrived: not read yet, it may be any settled answer.
    await act(() => Promise.resolve());
    expect(spoken).toEqual([]);
    view.rerender(<AnswerAnnouncer started={new Set([5])} messages={[question, quick]} />);
    view.rerender(<AnswerAnnouncer started={new Set([5])} messages={[question, { ...quick }]} />);
    // Started, then shown settled (an edit's pages read again): read once too.
    const edited = message({ id: 7, content: 'Edited', status: 'done' });
    view.rerender(<AnswerAnnouncer started={new Set([5, 7])} messages={[question, edited]} />);
    view.rerender(<AnswerAnnouncer started={new Set([5, 7])} messages={[question, quick]} />);
    await act(() => Promise.resolve());
    stop();
    expect(spoken).toEqual(['Quick', 'Edited']);
  });

  it('is not read for a settled answer the page did not start, however new its time', async () => {
    const view = renderWithProviders(
      <AnswerAnnouncer started={none} messages={[question, message({ status: 'done' })]} />,
    );
    const { spoken, stop } = watch();
    view.rerender(
      <AnswerAnnouncer
        started={new Set([9])}
        messages={[
          question,
          message({ id: 6, content: 'Fresh', status: 'done', createdAt: later }),
        ]}
      />,
    );
    await act(() => Promise.resolve());
    stop();
    expect(spoken).toEqual([]);
  });
});

describe('an answer read aloud', () => {
  it('keeps the words and drops the marks of markdown', () => {
    expect(
      plainText(
        '# Title\n\n- **bold** and `code`\n1. a [link](https://x.test) ![cat](c.png)\n```ts\nconst a_b = 1;\n```\n> quoted',
      ),
    ).toBe('Title bold and code a link cat const a_b = 1; quoted');
  });
});
