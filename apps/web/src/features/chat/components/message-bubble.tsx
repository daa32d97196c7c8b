import { memo } from 'react';
import { Alert, Avatar, Button, Image, Tooltip, theme, Typography } from 'antd';
import {
  CopyOutlined,
  PauseCircleOutlined,
  RedoOutlined,
  RobotOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { copyText } from '@/lib/copy';
import { serverText } from '@/lib/server-text';
import { assetUrl } from '@/lib/urls';
import { useChatT } from '../i18n';
import { ChatMarkdown } from './markdown';

export interface MessageBubbleProps {
  message: MessageRecord;
  /** The latest answer of the conversation: only it can be regenerated. */
  isLast: boolean;
  busy: boolean;
  onStop: (id: number) => void;
  onRegenerate: (id: number) => void;
}

function AnswerState({ message }: { message: MessageRecord }) {
  const t = useChatT();
  if (message.status === 'error' || message.status === 'interrupted') {
    return (
      <Alert
        type={message.status === 'error' ? 'error' : 'warning'}
        showIcon
        title={message.status === 'error' ? t('chat.failed') : t('chat.interrupted')}
        description={serverText(message.error)}
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
}: MessageBubbleProps) {
  const t = useChatT();
  const { token } = theme.useToken();
  const isUser = message.role === 'user';
  const streaming = message.status === 'streaming';

  if (isUser) {
    return (
      <div className="atrium-msg atrium-msg-user" data-role="user" data-id={message.id}>
        <Avatar
          size={32}
          icon={<UserOutlined />}
          style={{ flex: 'none', background: token.colorPrimary }}
        />
        <div className="atrium-msg-body">
          {message.images.length > 0 && (
            <Image.PreviewGroup>
              <div
                style={{ display: 'flex', gap: 6, flexWrap: 'wrap', justifyContent: 'flex-end' }}
              >
                {message.images.map((path) => (
                  <Image
                    key={path}
                    src={assetUrl(path)}
                    width={88}
                    height={88}
                    style={{ objectFit: 'cover', borderRadius: 8 }}
                    alt=""
                  />
                ))}
              </div>
            </Image.PreviewGroup>
          )}
          <div
            className="atrium-bubble atrium-bubble-user"
            style={{ background: token.colorPrimary, color: token.colorWhite }}
          >
            {message.content}
          </div>
        </div>
      </div>
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
    <div
      className="atrium-msg"
      data-role="assistant"
      data-id={message.id}
      data-status={message.status}
      aria-busy={streaming}
    >
      <Avatar
        size={32}
        icon={<RobotOutlined />}
        style={{ flex: 'none', background: token.colorFillSecondary, color: token.colorText }}
      />
      <div className="atrium-msg-body" style={{ flex: 1 }}>
        <div
          className={`atrium-bubble atrium-bubble-assistant${streaming ? ' atrium-cursor' : ''}`}
          style={{
            background: token.colorFillQuaternary,
            border: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {message.content ? (
            <ChatMarkdown text={message.content} />
          ) : streaming ? (
            <Typography.Text type="secondary">{t('chat.thinking')}</Typography.Text>
          ) : null}
          <AnswerState message={message} />
        </div>
        <div className="atrium-msg-actions">
          {streaming ? (
            <Button
              size="small"
              type="text"
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
      </div>
    </div>
  );
});
