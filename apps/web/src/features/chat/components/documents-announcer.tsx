import { useEffect, useRef } from 'react';
import type { DocumentRecord } from '@atrium/shared/contract/chat-docs';
import { announce } from '@/lib/announce';
import { useChatDocsT } from '../docs-i18n';

/** Where a document stands, in steps worth saying: its state, and a quarter of its reading. */
const stepOf = (doc: DocumentRecord) =>
  `${doc.status}:${doc.status === 'running' ? Math.floor(doc.progress / 25) : 0}`;

/**
 * Says how the conversation's documents are read as it changes: a document added, each quarter
 * of its reading, ready (with its pages) or why it cannot be read. Not the ones already there
 * when the conversation opens, and not every percent.
 */
export function DocumentsAnnouncer({
  conversationId,
  documents,
}: {
  /** Another conversation (or none) starts again from what it holds, unsaid. */
  conversationId: number | undefined;
  /** undefined while they are loaded. */
  documents: readonly DocumentRecord[] | undefined;
}) {
  const t = useChatDocsT();
  const steps = useRef<{ conversationId: number | undefined; known: Map<number, string> }>(
    undefined,
  );
  useEffect(() => {
    if (!documents) {
      steps.current = undefined;
      return;
    }
    const before = steps.current;
    const next = new Map(documents.map((d) => [d.id, stepOf(d)]));
    steps.current = { conversationId, known: next };
    if (!before || before.conversationId !== conversationId) return;
    const known = before.known;
    const said = documents
      .filter((d) => known.get(d.id) !== next.get(d.id))
      .map((d) => {
        const state =
          d.status === 'done'
            ? d.pages > 0
              ? t('chatDocs.donePages', { pages: d.pages })
              : t('chatDocs.done')
            : d.status === 'running'
              ? t('chatDocs.running', { progress: d.progress })
              : d.status === 'queued'
                ? t('chatDocs.queued')
                : d.error || t('chatDocs.failed');
        return `${d.name}: ${state}`;
      });
    if (said.length > 0) announce(said.join('; '));
  }, [conversationId, documents, t]);
  return null;
}
