import type { HTMLAttributes, ReactNode } from 'react';
import { Avatar, Image, theme } from 'antd';
import { RobotOutlined, UserOutlined } from '@ant-design/icons';
import { assetUrl } from '@/lib/urls';

export interface MessageFrameProps extends HTMLAttributes<HTMLDivElement> {
  role: 'user' | 'assistant';
  /** The avatar's name for a screen reader, where the page names who speaks. */
  avatarLabel?: string;
  /** The images the question carried. */
  images?: readonly string[];
  children: ReactNode;
}

/**
 * One message as the chat and a shared conversation both show it: the avatar, the images, and
 * the body (the bubble and what follows it), the member's on the right.
 */
export function MessageFrame({
  role,
  avatarLabel,
  images = [],
  children,
  ...rest
}: MessageFrameProps) {
  const { token } = theme.useToken();
  const user = role === 'user';
  return (
    <div className={user ? 'atrium-msg atrium-msg-user' : 'atrium-msg'} data-role={role} {...rest}>
      <Avatar
        size={32}
        icon={user ? <UserOutlined /> : <RobotOutlined />}
        aria-label={avatarLabel}
        style={{
          flex: 'none',
          background: user ? token.colorPrimary : token.colorFillSecondary,
          color: user ? undefined : token.colorText,
        }}
      />
      <div className="atrium-msg-body" style={user ? undefined : { flex: 1 }}>
        {images.length > 0 && (
          <Image.PreviewGroup>
            <div
              style={{
                display: 'flex',
                gap: 6,
                flexWrap: 'wrap',
                justifyContent: user ? 'flex-end' : 'flex-start',
              }}
            >
              {images.map((path) => (
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
        {children}
      </div>
    </div>
  );
}

/** The member's text as typed (never markup). */
export function QuestionBubble({ content }: { content: string }) {
  const { token } = theme.useToken();
  return (
    <div
      className="atrium-bubble atrium-bubble-user"
      style={{ background: token.colorPrimary, color: token.colorWhite }}
    >
      {content}
    </div>
  );
}

/** The answer's bubble (its markdown and state inside); a cursor while it streams. */
export function AnswerBubble({
  streaming = false,
  children,
}: {
  streaming?: boolean;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <div
      className={`atrium-bubble atrium-bubble-assistant${streaming ? ' atrium-cursor' : ''}`}
      style={{
        background: token.colorFillQuaternary,
        border: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {children}
    </div>
  );
}
