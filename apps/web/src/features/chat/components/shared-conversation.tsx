import { useEffect } from 'react';
import dayjs from 'dayjs';
import { Button, Card, Empty, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { ChatShareView } from '@atrium/shared/contract/chat-export';
import { ApiError } from '@/lib/api';
import { useSharedConversation } from '../api/view-share';
import { useChatShareT } from '../share-i18n';
import { ChatMarkdown } from './markdown';
import { AnswerBubble, MessageFrame, QuestionBubble } from './message-frame';
import './chat.css';

type SharedMessage = ChatShareView['messages'][number];

const statusKey = {
  stopped: 'chatShare.statusStopped',
  error: 'chatShare.statusError',
  interrupted: 'chatShare.statusInterrupted',
} as const;

/** Keeps search engines off the page while it is shown (the answer says so too). */
function useNoIndex(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

/** One message of the snapshot, in the chat's own frame and bubbles, without its actions. */
function SharedBubble({ message }: { message: SharedMessage }) {
  const t = useChatShareT();
  const user = message.role === 'user';
  const note =
    message.status in statusKey ? statusKey[message.status as keyof typeof statusKey] : undefined;
  return (
    <MessageFrame
      role={user ? 'user' : 'assistant'}
      avatarLabel={user ? t('chatShare.you') : t('chatShare.assistant')}
      images={message.images}
    >
      {user ? (
        <QuestionBubble content={message.content} />
      ) : (
        <AnswerBubble>
          {message.content && <ChatMarkdown text={message.content} />}
          {note && <Typography.Text type="secondary">{t(note)}</Typography.Text>}
        </AnswerBubble>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {dayjs(message.createdAt).format('YYYY-MM-DD HH:mm')}
      </Typography.Text>
    </MessageFrame>
  );
}

/** A shared conversation (`#/share/:token`): a read-only snapshot, no composer. */
export function SharedConversation({ token }: { token: string }) {
  const t = useChatShareT();
  useNoIndex();
  const shared = useSharedConversation(token);

  useEffect(() => {
    if (!shared.data) return;
    const before = document.title;
    document.title = `${shared.data.title} · ${t('chatShare.pageTitle')}`;
    return () => {
      document.title = before;
    };
  }, [shared.data, t]);

  if (shared.isPending)
    return (
      <Skeleton active paragraph={{ rows: 8 }} style={{ maxWidth: 880, margin: '24px auto' }} />
    );
  if (shared.isError) {
    const notFound = shared.error instanceof ApiError && shared.error.code === -1;
    return (
      <Result
        status={notFound ? '404' : 'warning'}
        title={notFound ? t('chatShare.notFound') : t('chatShare.loadFailed')}
        subTitle={notFound ? t('chatShare.notFoundText') : undefined}
        extra={
          notFound ? (
            <Link to="/">
              <Button type="primary">{t('chatShare.home')}</Button>
            </Link>
          ) : (
            <Button type="primary" onClick={() => void shared.refetch()}>
              {t('chatShare.retry')}
            </Button>
          )
        }
      />
    );
  }
  const view = shared.data;
  return (
    <Flex vertical gap={16} style={{ width: '100%', maxWidth: 920, margin: '0 auto' }}>
      <Card size="small" styles={{ body: { padding: '14px 16px' } }}>
        <Flex vertical gap={6}>
          <Typography.Title level={1} style={{ fontSize: 22, margin: 0, overflowWrap: 'anywhere' }}>
            {view.title}
          </Typography.Title>
          <Flex gap={8} wrap="wrap" align="center">
            <Link to={`/${view.roomId}`} title={t('chatShare.openRoom')}>
              {view.roomTitle}
            </Link>
            <Typography.Text type="secondary">
              {t('chatShare.sharedAt', { date: dayjs(view.sharedAt).format('YYYY-MM-DD HH:mm') })}
            </Typography.Text>
            <Tag icon={<EyeOutlined />} style={{ marginInlineEnd: 0 }}>
              {t('chatShare.readOnly')}
            </Tag>
          </Flex>
        </Flex>
      </Card>
      <div aria-label={view.title} role="log">
        {view.messages.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chatShare.empty')} />
        ) : (
          view.messages.map((message, index) => <SharedBubble key={index} message={message} />)
        )}
      </div>
    </Flex>
  );
}
