import { useEffect, useRef } from 'react';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { useChatT } from '../i18n';
import { spokenAnswer } from './spoken-answer';

/**
 * A polite live region that reads an answer once, when it settles (done, stopped or failed):
 * never token by token, and not again on a re-render, a version switch or a conversation opened
 * with its answers already settled. An answer seen writing here is read when it ends, and so is
 * one this page `started` (a send, an edit or a regeneration told it the answer's id) that was
 * already settled when it first showed: a short answer can finish before the page ever sees it
 * streaming.
 */
export function AnswerAnnouncer({
  messages,
  started,
}: {
  messages: readonly MessageRecord[];
  started: ReadonlySet<number>;
}) {
  const t = useChatT();
  const region = useRef<HTMLDivElement>(null);
  const writing = useRef(new Set<number>());
  // Answers read, or left unread for good (switched away from while they were written).
  const done = useRef(new Set<number>());
  useEffect(() => {
    const shown = new Set<number>();
    let settled: MessageRecord | undefined;
    for (const m of messages) {
      if (m.role !== 'assistant') continue;
      shown.add(m.id);
      if (m.status === 'streaming') writing.current.add(m.id);
      else if (writing.current.delete(m.id) || (started.has(m.id) && !done.current.has(m.id))) {
        settled = m;
        done.current.add(m.id);
      }
    }
    // An answer switched away from while it was written is not read when it comes back.
    for (const id of writing.current) {
      if (shown.has(id)) continue;
      writing.current.delete(id);
      done.current.add(id);
    }
    if (settled && region.current) region.current.textContent = spokenAnswer(settled, t);
  }, [messages, started, t]);
  return (
    <div
      ref={region}
      className="atrium-sr-only"
      aria-live="polite"
      aria-atomic="true"
      data-testid="answer-announcer"
    />
  );
}
