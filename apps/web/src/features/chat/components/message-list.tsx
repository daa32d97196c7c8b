import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Spin } from 'antd';
import { ArrowDownOutlined } from '@ant-design/icons';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { useChatT } from '../i18n';
import { MessageBubble } from './message-bubble';

export interface MessageListProps {
  messages: MessageRecord[];
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Shown above the first message, or alone when there is none. */
  header?: ReactNode;
  busy: boolean;
  onStop: (id: number) => void;
  onRegenerate: (id: number) => void;
  onEdit: (id: number, content: string) => Promise<boolean>;
  onShowVersion: (id: number) => void;
  /** The version just shown (switched to or regenerated): its ‹ n / m › takes the focus. */
  versionFocusId?: number | undefined;
  /** A message to scroll to and mark for a moment (a search opened it), once it is loaded. */
  focusId?: number | undefined;
  /** Called once `focusId` was scrolled to. */
  onFocused?: () => void;
}

/** How close to an edge counts as "at" it, in pixels. */
const EDGE = 120;

/**
 * The conversation, oldest at the top. Scrolling near the top loads the previous page and keeps
 * the message you were reading in place; while you are at the bottom it follows new text.
 */
export function MessageList({
  messages,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  header,
  busy,
  onStop,
  onRegenerate,
  onEdit,
  onShowVersion,
  versionFocusId,
  focusId,
  onFocused,
}: MessageListProps) {
  const t = useChatT();
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<{ id: number; top: number }>(undefined);
  const [showJump, setShowJump] = useState(false);
  const lastAnswerId = [...messages].reverse().find((m) => m.role === 'assistant')?.id;
  const lastId = messages.at(-1)?.id;

  const loadOlder = useCallback(() => {
    const el = scroller.current;
    const first = messages[0];
    if (!el || !first || !hasOlder || loadingOlder) return;
    const node = el.querySelector<HTMLElement>(`[data-id="${first.id}"]`);
    if (node) anchor.current = { id: first.id, top: node.offsetTop - el.scrollTop };
    onLoadOlder();
  }, [messages, hasOlder, loadingOlder, onLoadOlder]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const kept = anchor.current;
    if (kept && messages[0]?.id !== kept.id) {
      const node = el.querySelector<HTMLElement>(`[data-id="${kept.id}"]`);
      if (node) el.scrollTop = node.offsetTop - kept.top;
      anchor.current = undefined;
      return;
    }
    if (atBottom.current) el.scrollTop = el.scrollHeight;
  });

  // A message a search opened: centred and marked for a moment, no longer following the end.
  useEffect(() => {
    const el = scroller.current;
    if (!el || focusId === undefined) return;
    const node = el.querySelector<HTMLElement>(`[data-id="${focusId}"]`);
    if (!node) return;
    atBottom.current = false;
    node.scrollIntoView({ block: 'center' });
    node.classList.remove('atrium-message-found');
    void node.offsetWidth;
    node.classList.add('atrium-message-found');
    onFocused?.();
  }, [focusId, messages, onFocused]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < EDGE;
    setShowJump(
      !atBottom.current && el.scrollHeight - el.scrollTop - el.clientHeight > el.clientHeight,
    );
    if (el.scrollTop < EDGE * 2) loadOlder();
  };

  return (
    <div style={{ position: 'relative', flex: 1, minHeight: 0, display: 'flex' }}>
      <div
        ref={scroller}
        className="atrium-chat-scroll"
        onScroll={onScroll}
        // The conversation, not read as it changes (that would be every token of an answer):
        // a settled answer is read once by the room's AnswerAnnouncer. Focusable to scroll by keys.
        role="log"
        aria-live="off"
        aria-label={t('chat.messages')}
        tabIndex={0}
        data-testid="chat-messages"
      >
        {hasOlder ? (
          <div style={{ textAlign: 'center', padding: 8 }}>
            {loadingOlder ? (
              <Spin size="small" description={t('chat.loadingOlder')}>
                <div style={{ height: 24 }} />
              </Spin>
            ) : (
              <Button size="small" type="link" onClick={loadOlder}>
                {t('chat.loadingOlder')}
              </Button>
            )}
          </div>
        ) : (
          header
        )}
        {messages.map((message) => (
          <MessageBubble
            key={message.id}
            message={message}
            isLast={message.id === lastAnswerId && message.id === lastId}
            busy={busy}
            onStop={onStop}
            onRegenerate={onRegenerate}
            onEdit={onEdit}
            onShowVersion={onShowVersion}
            versionFocus={message.id === versionFocusId}
          />
        ))}
      </div>
      {showJump && (
        <Button
          shape="round"
          size="small"
          icon={<ArrowDownOutlined />}
          style={{ position: 'absolute', bottom: 12, left: '50%', transform: 'translateX(-50%)' }}
          onClick={() => {
            const el = scroller.current;
            if (el) el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
          }}
        >
          {t('chat.jumpLatest')}
        </Button>
      )}
    </div>
  );
}
