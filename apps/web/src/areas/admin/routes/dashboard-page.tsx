import { lazy, Suspense } from 'react';
import { Card, Col, Empty, Flex, Row, Skeleton, Typography, theme } from 'antd';
import { RightOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { hasRule, type ShownMenuItem } from '@atrium/shared/rules';
import { useT } from '@/lib/i18n';
import { useConfigStore } from '@/stores/config-store';
import { usePermissionStore } from '@/stores/permission-store';
import { useReloadStore } from '@/stores/reload-store';
import { displayName, useUserStore } from '@/stores/user-store';
import { useDashboardStats } from '@/features/dashboard/api/dashboard-stats';
import { StatCards } from '@/features/dashboard/components/stat-cards';
import { useVisibleMenu } from '../layout/admin-menu';
import { menuPages } from '../layout/menu';
import { MenuIcon } from '../layout/menu-icon';

// recharts is big: it arrives with the charts, after the page and its numbers are on screen.
const DashboardCharts = lazy(async () => ({
  default: (await import('@/features/dashboard/components/dashboard-charts')).DashboardCharts,
}));

/** The top-level item a page belongs to, for its icon. */
function sectionIcon(menu: readonly ShownMenuItem[], page: ShownMenuItem): string | undefined {
  return menu.find((top) => top === page || menuPages([top]).includes(page))?.icon;
}

function ChartsFallback() {
  return (
    <Row gutter={[16, 16]}>
      {[0, 1, 2].map((i) => (
        <Col key={i} xs={24} lg={12} xl={8}>
          <Card>
            <Skeleton active paragraph={{ rows: 6 }} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

export function DashboardPage() {
  const { t, tText } = useT();
  const { token } = theme.useToken();
  const user = useUserStore((s) => s.user);
  const config = useConfigStore((s) => s.config);
  const mayView = usePermissionStore((s) => hasRule(s.rules, 'dashboard'));
  const hashPC = useReloadStore((s) => s.hashPC);
  const stats = useDashboardStats(mayView);
  const menu = useVisibleMenu();
  const pages = menuPages(menu).filter((page) => page.url !== 'dashboard');
  const siteName = config.siteName || t('app.name');

  return (
    <Flex vertical gap={24} style={{ maxWidth: 1400 }}>
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('dashboard.greeting', { name: displayName(user) })}
        </Typography.Title>
        <Typography.Text type="secondary">
          {t('dashboard.intro', { site: siteName })}
        </Typography.Text>
      </div>

      {mayView && (
        <>
          <StatCards stats={stats.data} />
          {stats.data ? (
            <Suspense fallback={<ChartsFallback />}>
              <DashboardCharts stats={stats.data} />
            </Suspense>
          ) : (
            <ChartsFallback />
          )}
        </>
      )}

      <Card title={t('dashboard.sections')}>
        {pages.length === 0 ? (
          <Empty description={t('dashboard.noSections')} />
        ) : (
          <Row gutter={[12, 12]}>
            {pages.map((page) => (
              <Col key={page.url} xs={24} sm={12} lg={8} xl={6}>
                <Link to={`/${page.url}`}>
                  <Card hoverable size="small" styles={{ body: { padding: '14px 16px' } }}>
                    <Flex align="center" gap={12}>
                      <Flex
                        aria-hidden
                        align="center"
                        justify="center"
                        style={{
                          width: 36,
                          height: 36,
                          borderRadius: 8,
                          background: token.colorPrimaryBg,
                          color: token.colorPrimary,
                          fontSize: 18,
                          flex: 'none',
                        }}
                      >
                        <MenuIcon name={sectionIcon(menu, page)} />
                      </Flex>
                      <Flex vertical style={{ minWidth: 0, flex: 1 }}>
                        <Typography.Text strong ellipsis>
                          {tText(page.title)}
                        </Typography.Text>
                        <Typography.Text
                          type="secondary"
                          ellipsis
                          style={{ fontSize: 12 }}
                          aria-hidden
                        >
                          #/{page.url}
                        </Typography.Text>
                      </Flex>
                      <RightOutlined style={{ color: token.colorTextTertiary }} aria-hidden />
                    </Flex>
                  </Card>
                </Link>
              </Col>
            ))}
          </Row>
        )}
      </Card>

      <Flex gap={16} wrap style={{ fontSize: 12 }}>
        <Typography.Text type="secondary">
          {t('dashboard.serverVersion')} <span>{config.version || '-'}</span>
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('dashboard.pagesVersion')}{' '}
          <span style={{ fontFamily: token.fontFamilyCode }}>
            {hashPC ? hashPC.slice(0, 8) : '-'}
          </span>
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
