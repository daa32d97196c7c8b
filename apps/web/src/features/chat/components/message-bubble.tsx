import { memo, useEffect, useRef, useState } from 'react';
import { Alert, Button, Input, Space, Tooltip, Typography } from 'antd';
import { CopyOutlined, EditOutlined, PauseCircleOutlined, RedoOutlined } from '@ant-design/icons';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { copyText } from '@/lib/copy';
import { storedText } from '@/lib/messages';
import { useChatT } from '../i18n';
import { Citations } from './citations';
import { ChatMarkdown } from './markdown';
import { AnswerBubble, MessageFrame, QuestionBubble } from './message-frame';
import { MessageVersions } from './message-versions';

export interface MessageBubbleProps {
  message: MessageRecord;
  /** The latest answer of the conversation: only it can be regenerated. */
  isLast: boolean;
  busy: boolean;
  onStop: (id: number) => void;
  onRegenerate: (id: number) => void;
  /** Asks this question again in other words; resolves false when it was refused. */
  onEdit: (id: number, content: string) => Promise<boolean>;
  /** Shows another version of a question or an answer (and the branch after it). */
  onShowVersion: (id: number) => void;
  /** The version a switch has just shown: its ‹ n / m › takes the focus. */
  versionFocus?: boolean;
}

/** The question in a box to change it; saving asks it again as a new version. */
function EditQuestion({
  message,
  onSave,
  onSaved,
  onCancel,
}: {
  message: MessageRecord;
  onSave: (content: string) => Promise<boolean>;
  /** Saved: the room gives the focus to the message box. */
  onSaved: () => void;
  /** Given up (Esc or Cancel): the focus goes back to the edit button. */
  onCancel: () => void;
}) {
  const t = useChatT();
  const [text, setText] = useState(message.content);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!text.trim() || saving) return;
    setSaving(true);
    const ok = await onSave(text.trim());
    setSaving(false);
    if (ok) onSaved();
  };
  return (
    <div className="atrium-msg-edit">
      <Input.TextArea
        autoFocus
        value={text}
        autoSize={{ minRows: 2, maxRows: 10 }}
        aria-label={t('chat.editQuestion')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          }
        }}
      />
      <Space style={{ marginTop: 8 }}>
        <Button size="small" onClick={onCancel}>
          {t('chat.cancelEdit')}
        </Button>
        <Button
          size="small"
          type="primary"
          loading={saving}
          disabled={!text.trim() || text.trim() === message.content}
          onClick={() => void save()}
        >
          {t('chat.saveEdit')}
        </Button>
      </Space>
    </div>
  );
}

/**
 * Why an answer failed, in the page's language: from the catalogue key and parameters the server
 * stored with it (`errorKey`, `errorParams`), else `error` as the server sent it.
 */
function answerError(message: MessageRecord): string {
  return storedText(message.error, message.errorKey, message.errorParams);
}

function AnswerState({ message }: { message: MessageRecord }) {
  const t = useChatT();
  if (message.status === 'error' || message.status === 'interrupted') {
    return (
      <Alert
        type={message.status === 'error' ? 'error' : 'warning'}
        showIcon
        title={message.status === 'error' ? t('chat.failed') : t('chat.interrupted')}
        description={answerError(message)}
        style={{ marginTop: message.content ? 10 : 0 }}
      />
    );
  }
  return null;
}

/** One message: the member's text as typed (never markup), or the answer as markdown. */
export const MessageBubble = memo(function MessageBubble({
  message,
  isLast,
  busy,
  onStop,
  onRegenerate,
  onEdit,
  onShowVersion,
  versionFocus = false,
}: MessageBubbleProps) {
  const t = useChatT();
  const [editing, setEditing] = useState(false);
  // An edit given up gives the focus back to the button that opened it (rendered again by then).
  const editButton = useRef<HTMLButtonElement>(null);
  const backToEdit = useRef(false);
  useEffect(() => {
    if (editing || !backToEdit.current) return;
    backToEdit.current = false;
    editButton.current?.focus();
  }, [editing]);
  const isUser = message.role === 'user';
  const streaming = message.status === 'streaming';

  if (isUser) {
    return (
      <MessageFrame role="user" data-id={message.id} images={message.images}>
        {editing ? (
          <EditQuestion
            message={message}
            onSave={(content) => onEdit(message.id, content)}
            onSaved={() => setEditing(false)}
            onCancel={() => {
              backToEdit.current = true;
              setEditing(false);
            }}
          />
        ) : (
          <QuestionBubble content={message.content} />
        )}
        {!editing && (
          <div className="atrium-msg-actions atrium-msg-actions-user">
            <MessageVersions
              message={message}
              busy={busy}
              onShowVersion={onShowVersion}
              autoFocus={versionFocus}
            />
            <Tooltip title={t('common.edit')}>
              <Button
                ref={editButton}
                size="small"
                type="text"
                aria-label={t('common.edit')}
                icon={<EditOutlined />}
                disabled={busy}
                onClick={() => setEditing(true)}
              />
            </Tooltip>
          </div>
        )}
      </MessageFrame>
    );
  }

  const tokens =
    message.status !== 'streaming' && (message.promptTokens > 0 || message.completionTokens > 0)
      ? t(message.tokensEstimated ? 'chat.tokensEstimated' : 'chat.tokens', {
          prompt: message.promptTokens,
          completion: message.completionTokens,
        })
      : '';

  return (
    <MessageFrame
      role="assistant"
      data-id={message.id}
      data-status={message.status}
      aria-busy={streaming}
    >
      <AnswerBubble streaming={streaming}>
        {message.content ? (
          <ChatMarkdown text={message.content} />
        ) : streaming ? (
          <Typography.Text type="secondary">{t('chat.thinking')}</Typography.Text>
        ) : null}
        <AnswerState message={message} />
      </AnswerBubble>
      {message.citations && !streaming && <Citations citations={message.citations} />}
      <div className="atrium-msg-actions">
        <MessageVersions
          message={message}
          busy={busy}
          onShowVersion={onShowVersion}
          autoFocus={versionFocus}
        />
        {streaming ? (
          <Button
            size="small"
            type="text"
            aria-label={t('chat.stop')}
            icon={<PauseCircleOutlined />}
            onClick={() => onStop(message.id)}
          >
            {t('chat.stop')}
          </Button>
        ) : (
          <>
            {message.content && (
              <Tooltip title={t('chat.copy')}>
                <Button
                  size="small"
                  type="text"
                  aria-label={t('chat.copy')}
                  icon={<CopyOutlined />}
                  onClick={() => void copyText(message.content)}
                />
              </Tooltip>
            )}
            {isLast && (
              <Tooltip title={t('chat.regenerate')}>
                <Button
                  size="small"
                  type="text"
                  aria-label={t('chat.regenerate')}
                  icon={<RedoOutlined />}
                  disabled={busy}
                  onClick={() => onRegenerate(message.id)}
                />
              </Tooltip>
            )}
            {message.status === 'stopped' && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('chat.stopped')}
              </Typography.Text>
            )}
            {tokens && (
              <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 6 }}>
                {tokens}
              </Typography.Text>
            )}
          </>
        )}
      </div>
    </MessageFrame>
  );
});
