import { memo } from 'react';
import { theme } from 'antd';
import { EyeOutlined, RobotOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { RoomRecord } from '@atrium/shared/contract/chat';
import { ImageCover } from '@/components/image-cover/image-cover';
import { Highlight } from '@/lib/highlight';
import { useRoomsT } from '../i18n';

export interface RoomCardProps {
  room: RoomRecord;
  /** Plain text of the description, for the excerpt. */
  excerpt: string;
  keyword: string;
}

/**
 * One room on the home grid: cover, title and excerpt with the search highlighted, model. Plain
 * elements rather than antd's Typography and Tag keep the home page's first load small.
 */
export const RoomCard = memo(function RoomCard({ room, excerpt, keyword }: RoomCardProps) {
  const t = useRoomsT();
  const { token } = theme.useToken();
  return (
    <Link
      to={`/${room.id}`}
      className="atrium-room-card"
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        color: token.colorText,
      }}
    >
      <ImageCover src={room.cover} ratio="16:9">
        {!room.cover && (
          <div
            className="atrium-room-card-placeholder"
            style={{
              color: token.colorPrimary,
              background: `linear-gradient(135deg, ${token.colorPrimaryBg} 0%, ${token.colorInfoBg} 100%)`,
            }}
          >
            <RobotOutlined />
          </div>
        )}
      </ImageCover>
      <div className="atrium-room-card-body">
        <h3 className="atrium-room-card-title">
          <Highlight text={room.title} keyword={keyword} />
        </h3>
        {excerpt && (
          <p className="atrium-room-card-excerpt" style={{ color: token.colorTextSecondary }}>
            <Highlight text={excerpt} keyword={keyword} />
          </p>
        )}
        <div className="atrium-room-card-tags">
          {room.model ? (
            <span
              className="atrium-tag"
              style={{ color: token.colorPrimaryText, background: token.colorPrimaryBg }}
            >
              <RobotOutlined /> {room.model.title}
            </span>
          ) : (
            <span
              className="atrium-tag"
              style={{ color: token.colorTextSecondary, background: token.colorFillSecondary }}
            >
              {t('rooms.noModel')}
            </span>
          )}
          {room.model?.vision && (
            <span
              className="atrium-tag"
              style={{ color: '#722ed1', background: 'rgba(114, 46, 209, 0.1)' }}
            >
              <EyeOutlined /> {t('rooms.vision')}
            </span>
          )}
        </div>
      </div>
    </Link>
  );
});
