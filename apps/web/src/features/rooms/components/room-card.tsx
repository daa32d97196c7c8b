import { memo } from 'react';
import { Tag, theme, Typography } from 'antd';
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

/** One room on the home grid: cover, title and excerpt with the search highlighted, model. */
export const RoomCard = memo(function RoomCard({ room, excerpt, keyword }: RoomCardProps) {
  const t = useRoomsT();
  const { token } = theme.useToken();
  return (
    <Link
      to={`/${room.id}`}
      className="atrium-room-card"
      aria-label={room.title}
      style={{
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        borderRadius: 14,
        overflow: 'hidden',
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        color: 'inherit',
      }}
    >
      <ImageCover src={room.cover} ratio="16:9">
        {!room.cover && (
          <div
            style={{
              height: '100%',
              display: 'grid',
              placeItems: 'center',
              fontSize: 40,
              color: token.colorPrimary,
              background: `linear-gradient(135deg, ${token.colorPrimaryBg} 0%, ${token.colorInfoBg} 100%)`,
            }}
          >
            <RobotOutlined />
          </div>
        )}
      </ImageCover>
      <div
        style={{
          padding: '14px 16px 16px',
          display: 'flex',
          flexDirection: 'column',
          gap: 8,
          flex: 1,
        }}
      >
        <Typography.Title level={5} style={{ margin: 0 }} ellipsis={{ rows: 1 }}>
          <Highlight text={room.title} keyword={keyword} />
        </Typography.Title>
        {excerpt && (
          <Typography.Paragraph
            type="secondary"
            style={{ margin: 0, fontSize: 13 }}
            ellipsis={{ rows: 2 }}
          >
            <Highlight text={excerpt} keyword={keyword} />
          </Typography.Paragraph>
        )}
        <div style={{ marginTop: 'auto', display: 'flex', gap: 4, flexWrap: 'wrap' }}>
          {room.model ? (
            <Tag color="blue" variant="filled" icon={<RobotOutlined />}>
              {room.model.title}
            </Tag>
          ) : (
            <Tag variant="filled">{t('rooms.noModel')}</Tag>
          )}
          {room.model?.vision && (
            <Tag color="purple" variant="filled" icon={<EyeOutlined />}>
              {t('rooms.vision')}
            </Tag>
          )}
        </div>
      </div>
    </Link>
  );
});
