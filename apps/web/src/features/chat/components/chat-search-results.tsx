import { useState, type ReactNode } from 'react';
import { Button, Empty, Segmented, Spin, Typography } from 'antd';
import { MessageOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { MatchRange, MessageHit, TitleHit } from '@atrium/shared/contract/chat-search';
import { toast } from '@/lib/feedback';
import { useChatSearch, useRevealMessage } from '../api/search-all';
import { useChatT } from '../i18n';
import './chat-search.css';

/**
 * `text` with the server's match ranges wrapped in <mark>. Both only ever become text nodes:
 * the server sends offsets, never markup.
 */
export function RangeHighlight({ text, ranges }: { text: string; ranges: readonly MatchRange[] }) {
  const nodes: ReactNode[] = [];
  let from = 0;
  for (const [start, end] of ranges) {
    if (start < from || end > text.length || start >= end) continue;
    if (start > from) nodes.push(text.slice(from, start));
    nodes.push(
      <mark key={start} className="atrium-highlight">
        {text.slice(start, end)}
      </mark>,
    );
    from = end;
  }
  if (from < text.length) nodes.push(text.slice(from));
  return <>{nodes}</>;
}

export interface ChatSearchResultsProps {
  keywords: string;
  /** The room the member is in: the "this room" scope. */
  roomId: number;
  activeId: number | undefined;
  /** Called once a hit was opened (e.g. to close the drawer on a phone). */
  onOpened?: () => void;
}

/**
 * Search over all of the member's conversations (issue 18): conversations whose title holds
 * the words, then messages, newest first, in every room or in this one. Opening a message goes
 * to its room and conversation, shows its branch, and scrolls to it.
 */
export function ChatSearchResults({
  keywords,
  roomId,
  activeId,
  onOpened,
}: ChatSearchResultsProps) {
  const t = useChatT();
  const navigate = useNavigate();
  const [scope, setScope] = useState<'all' | 'room'>('all');
  const search = useChatSearch(keywords, scope === 'room' ? roomId : undefined);
  const reveal = useRevealMessage();
  const pages = search.data?.pages ?? [];
  const titles = pages[0]?.titles ?? [];
  const messages = pages.flatMap((p) => p.records);

  const openTitle = (hit: TitleHit) => {
    void navigate(`/${hit.conversation.roomId}?c=${hit.conversation.id}&f=0`);
    onOpened?.();
  };
  const openMessage = async (hit: MessageHit) => {
    try {
      const revealed = await reveal.mutateAsync(hit.messageId);
      if (revealed.switchedBranch) toast.info(t('chatSearch.branchShown'));
      void navigate(`/${revealed.roomId}?c=${revealed.conversationId}&f=${hit.messageId}`);
      onOpened?.();
    } catch {
      // The request's own error message was shown.
    }
  };

  const roleIcon = (role: MessageHit['role']) =>
    role === 'user' ? (
      <UserOutlined aria-label={t('chatSearch.you')} />
    ) : (
      <RobotOutlined aria-label={t('chatSearch.ai')} />
    );

  return (
    <div className="atrium-chat-search" aria-busy={search.isFetching}>
      <Segmented
        block
        size="small"
        value={scope}
        onChange={(value) => setScope(value as 'all' | 'room')}
        options={[
          { value: 'all', label: t('chatSearch.allRooms') },
          { value: 'room', label: t('chatSearch.thisRoom') },
        ]}
        aria-label={t('chatSearch.scope')}
        style={{ marginBottom: 8 }}
      />
      {search.isPending ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : titles.length === 0 && messages.length === 0 && !search.hasNextPage ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('chatSearch.nothing', { keywords })}
        />
      ) : (
        <>
          {titles.length > 0 && (
            <section aria-label={t('chatSearch.conversations')}>
              <Typography.Text type="secondary" className="atrium-chat-search-heading">
                {t('chatSearch.conversations')}
              </Typography.Text>
              {titles.map((hit) => (
                <button
                  key={`c${hit.conversation.id}`}
                  type="button"
                  className="atrium-conversation-hit"
                  aria-current={hit.conversation.id === activeId ? 'true' : undefined}
                  onClick={() => openTitle(hit)}
                >
                  <span className="atrium-conversation-hit-title">
                    <MessageOutlined style={{ opacity: 0.6, marginInlineEnd: 6 }} />
                    <RangeHighlight text={hit.conversation.title} ranges={hit.ranges} />
                  </span>
                  <span className="atrium-chat-search-room">{hit.roomTitle}</span>
                </button>
              ))}
            </section>
          )}
          <section aria-label={t('chatSearch.messages')}>
            <Typography.Text type="secondary" className="atrium-chat-search-heading">
              {t('chatSearch.messages')}
            </Typography.Text>
            {messages.length === 0 && (
              <Typography.Paragraph type="secondary" className="atrium-chat-search-note">
                {search.hasNextPage
                  ? t('chatSearch.noneYet')
                  : t('chatSearch.noMessages', { keywords })}
              </Typography.Paragraph>
            )}
            {messages.map((hit) => (
              <button
                key={hit.messageId}
                type="button"
                className="atrium-conversation-hit"
                data-message-hit={hit.messageId}
                disabled={reveal.isPending}
                onClick={() => void openMessage(hit)}
              >
                <span className="atrium-chat-search-place">
                  <span className="atrium-conversation-hit-title">{hit.conversation.title}</span>
                  <span className="atrium-chat-search-room">{hit.roomTitle}</span>
                </span>
                <span className="atrium-conversation-hit-excerpt">
                  <span className="atrium-chat-search-role">{roleIcon(hit.role)}</span>
                  <RangeHighlight text={hit.excerpt} ranges={hit.ranges} />
                </span>
              </button>
            ))}
          </section>
          {search.hasNextPage && (
            <Button
              block
              type="link"
              loading={search.isFetchingNextPage}
              onClick={() => void search.fetchNextPage()}
            >
              {messages.length === 0 ? t('chatSearch.searchOlder') : t('chatSearch.more')}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
