import type { ReactNode } from 'react';
import { Card, Col, Flex, Row, Skeleton, Statistic, theme } from 'antd';
import {
  CloudServerOutlined,
  CommentOutlined,
  FileOutlined,
  MessageOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { DashboardStats } from '@atrium/shared/contract/dashboard';
import { formatSize } from '@/components/file-library/file-picker/file-record';
import { useDashboardT } from '../i18n';

interface Tile {
  key: string;
  title: string;
  value: string | number;
  icon: ReactNode;
  color: string;
}

export function StatCards({ stats }: { stats: DashboardStats | undefined }) {
  const t = useDashboardT();
  const { token } = theme.useToken();

  if (!stats) {
    return (
      <Row gutter={[16, 16]}>
        {[0, 1, 2, 3].map((i) => (
          <Col key={i} xs={24} sm={12} xl={6}>
            <Card>
              <Skeleton active paragraph={false} />
            </Card>
          </Col>
        ))}
      </Row>
    );
  }

  const { counts } = stats;
  const tiles: Tile[] = [
    {
      key: 'members',
      title: t('dashboardStats.members'),
      value: counts.members,
      icon: <TeamOutlined />,
      color: token.colorPrimary,
    },
    {
      key: 'files',
      title: t('dashboardStats.files'),
      value: counts.files,
      icon: <FileOutlined />,
      color: token.colorInfo,
    },
    {
      key: 'storage',
      title: t('dashboardStats.storage'),
      value: formatSize(counts.storageBytes),
      icon: <CloudServerOutlined />,
      color: token.colorWarning,
    },
    {
      key: 'admins',
      title: t('dashboardStats.admins'),
      value: counts.admins,
      icon: <SafetyCertificateOutlined />,
      color: token.colorSuccess,
    },
  ];
  // Chat numbers exist only once the product has chat rooms; absent, they are not shown as 0.
  if (counts.rooms !== null) {
    tiles.push({
      key: 'rooms',
      title: t('dashboardStats.rooms'),
      value: counts.rooms,
      icon: <CommentOutlined />,
      color: token.colorPrimary,
    });
  }
  if (counts.messagesToday !== null) {
    tiles.push({
      key: 'messages',
      title: t('dashboardStats.messagesToday'),
      value: counts.messagesToday,
      icon: <MessageOutlined />,
      color: token.colorInfo,
    });
  }
  const span = tiles.length > 4 ? 8 : 6;

  return (
    <Row gutter={[16, 16]}>
      {tiles.map((tile) => (
        <Col key={tile.key} xs={24} sm={12} xl={span}>
          <Card data-testid={`stat-${tile.key}`}>
            <Flex align="center" justify="space-between" gap={12}>
              <Statistic title={tile.title} value={tile.value} />
              <Flex
                align="center"
                justify="center"
                style={{
                  width: 44,
                  height: 44,
                  borderRadius: 12,
                  fontSize: 20,
                  color: tile.color,
                  background: token.colorFillQuaternary,
                  flex: 'none',
                }}
              >
                {tile.icon}
              </Flex>
            </Flex>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
