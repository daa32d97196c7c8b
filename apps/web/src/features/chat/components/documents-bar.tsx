import { useState } from 'react';
import { Button, Progress, Tooltip } from 'antd';
import {
  CheckCircleOutlined,
  CloseOutlined,
  ExclamationCircleOutlined,
  PaperClipOutlined,
} from '@ant-design/icons';
import {
  isDocumentName,
  maxDocumentsPerConversation,
  type DocumentRecord,
} from '@atrium/shared/contract/chat-docs';
import { FilePicker } from '@/components/file-library/file-picker/file-picker';
import type { PickedFile } from '@/components/file-library/file-picker/selection';
import { toast } from '@/lib/feedback';
import { useSmallWindow } from '@/lib/use-media-query';
import { useAttachDocuments, useDetachDocument } from '../api/documents';
import { DocumentsAnnouncer } from './documents-announcer';
import { useChatDocsT } from '../docs-i18n';
import './chat-docs.css';

/** One document: its name, how reading it goes (or why it cannot be read), and remove. */
function DocumentChip({
  doc,
  onRemove,
  removing,
}: {
  doc: DocumentRecord;
  onRemove: () => void;
  removing: boolean;
}) {
  const t = useChatDocsT();
  const failed = doc.status === 'failed';
  const state =
    doc.status === 'done'
      ? doc.pages > 0
        ? t('chatDocs.donePages', { pages: doc.pages })
        : t('chatDocs.done')
      : doc.status === 'running'
        ? t('chatDocs.running', { progress: doc.progress })
        : doc.status === 'queued'
          ? t('chatDocs.queued')
          : t('chatDocs.failed');
  const title = failed
    ? // The server says why, in the page's language ("无法读取这个文件：…").
      doc.error || t('chatDocs.failed')
    : doc.status === 'done'
      ? `${doc.name} · ${state}`
      : `${doc.name} · ${state} · ${t('chatDocs.notReadyHint')}`;
  return (
    <Tooltip title={title}>
      <span
        role="group"
        className={`atrium-doc-chip atrium-doc-${doc.status}`}
        data-status={doc.status}
        aria-label={`${doc.name}: ${failed ? title : state}`}
      >
        {failed ? (
          <ExclamationCircleOutlined aria-hidden className="atrium-doc-icon" />
        ) : doc.status === 'done' ? (
          <CheckCircleOutlined aria-hidden className="atrium-doc-icon" />
        ) : (
          <Progress
            type="circle"
            size={14}
            percent={doc.progress}
            showInfo={false}
            aria-hidden
            className="atrium-doc-icon"
          />
        )}
        <span className="atrium-doc-name">{doc.name}</span>
        <span className="atrium-doc-state">{state}</span>
        <Button
          size="small"
          type="text"
          className="atrium-doc-remove"
          icon={<CloseOutlined />}
          aria-label={t('chatDocs.remove', { name: doc.name })}
          disabled={removing}
          onClick={onRemove}
        />
      </span>
    </Tooltip>
  );
}

export interface DocumentsBarProps {
  roomId: number;
  /** The open conversation; undefined for a draft, whose conversation the attach creates. */
  conversationId: number | undefined;
  documents: readonly DocumentRecord[];
  /** The documents are not known yet (nothing is said of them until they are). */
  loading?: boolean;
  disabled: boolean;
  /** A draft's first documents created its conversation (only when they were attached). */
  onCreated: (conversationId: number) => void;
}

/**
 * Above the message box: "Documents" opens the file picker on the member's own files; the
 * conversation's documents follow as chips with how reading each goes, and remove.
 */
export function DocumentsBar({
  roomId,
  conversationId,
  documents,
  loading = false,
  disabled,
  onCreated,
}: DocumentsBarProps) {
  const t = useChatDocsT();
  const small = useSmallWindow();
  const [picking, setPicking] = useState(false);
  const attach = useAttachDocuments();
  const detach = useDetachDocument();
  const left = maxDocumentsPerConversation - documents.length;

  const onPicked = async (picked: PickedFile[]) => {
    setPicking(false);
    const usable = picked.filter((p) => isDocumentName(p.path));
    const skipped = picked.filter((p) => !isDocumentName(p.path));
    if (skipped.length > 0)
      toast.warning(
        t('chatDocs.unsupported', {
          names: skipped.map((p) => p.filename ?? p.name ?? p.path).join('、'),
        }),
      );
    if (usable.length === 0) return;
    try {
      const records = await attach.mutateAsync({
        conversationId: conversationId ?? 0,
        roomId,
        paths: usable.map((p) => p.path),
      });
      const created = records[0]?.conversationId;
      if (conversationId === undefined && created !== undefined) onCreated(created);
    } catch {
      // The error toast has said why.
    }
  };

  return (
    <div className="atrium-docs-bar" role="group" aria-label={t('chatDocs.attach')}>
      <DocumentsAnnouncer
        conversationId={conversationId}
        documents={loading ? undefined : documents}
      />
      <Tooltip title={t('chatDocs.attachHint', { max: maxDocumentsPerConversation })}>
        <Button
          size="small"
          icon={<PaperClipOutlined />}
          aria-label={t('chatDocs.attach')}
          disabled={disabled}
          loading={attach.isPending}
          onClick={() => {
            if (left <= 0) toast.warning(t('chatDocs.full', { max: maxDocumentsPerConversation }));
            else setPicking(true);
          }}
        >
          {small && documents.length > 0 ? null : t('chatDocs.attach')}
        </Button>
      </Tooltip>
      {documents.map((doc) => (
        <DocumentChip
          key={doc.id}
          doc={doc}
          removing={detach.isPending}
          onRemove={() =>
            conversationId !== undefined && detach.mutate({ conversationId, id: doc.id })
          }
        />
      ))}
      <FilePicker
        category="file"
        libraryOnly
        open={picking}
        max={Math.max(1, left)}
        onClose={() => setPicking(false)}
        onConfirm={(picked) => void onPicked(picked)}
      />
    </div>
  );
}
