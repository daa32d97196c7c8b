import { useState } from 'react';
import { Button, Drawer, Flex, Layout, Space, theme } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Brand } from '@/components/brand';
import { LanguageSwitch, ThemeSwitch } from '@/components/header-tools';
import { UserMenu } from '@/components/user-menu';
import { LeaveGuard } from '@/components/unsaved-changes/leave-guard';
import { afterDiscard } from '@/components/unsaved-changes/unsaved-changes';
import { toast } from '@/lib/feedback';
import { useT } from '@/lib/i18n';
import { loginLocation } from '@/lib/login-redirect';
import { useSmallWindow } from '@/lib/use-media-query';
import { useConfigStore } from '@/stores/config-store';
import { usePanelStore } from '@/stores/panel-store';
import { useUserStore } from '@/stores/user-store';
import { useLogout } from '@/features/auth/api/logout';
import { AdminMenu } from './admin-menu';

const headerHeight = 56;
const siderWidth = 232;

/** The admin panel (SPEC 2.3): header, permission-filtered menu, and the page. Signed-in only. */
export function AdminLayout() {
  const { t } = useT();
  const { token } = theme.useToken();
  const location = useLocation();
  const small = useSmallWindow();
  const style = usePanelStore((s) => s.style);
  const siteName = useConfigStore((s) => s.config.siteName) || t('app.name');
  const user = useUserStore((s) => s.user);
  const logout = useLogout();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);

  if (user.id === 0) {
    return <Navigate to={loginLocation(`${location.pathname}${location.search}`)} replace />;
  }

  const drawerMode = small && !style.alwaysShowMenu;
  const top = small ? style.mobileTop : style.top;

  // Signing out forgets the user, so the guard above takes the page to the login route; edits
  // not saved are asked about first, as leaving the page would.
  const onLogout = () =>
    afterDiscard(() =>
      logout.mutate(undefined, { onSuccess: () => toast.success(t('auth.loggedOut')) }),
    );

  return (
    <Layout style={{ minHeight: '100vh', paddingTop: top }}>
      <Layout.Header
        style={{
          position: 'sticky',
          top,
          zIndex: 20,
          height: headerHeight,
          lineHeight: `${headerHeight}px`,
          paddingInline: small ? 12 : 20,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Flex align="center" justify="space-between" gap={8} style={{ height: '100%' }}>
          <Flex align="center" gap={8} style={{ minWidth: 0 }}>
            {drawerMode && (
              <Button
                type="text"
                icon={<MenuOutlined />}
                aria-label={t('menu.open')}
                onClick={() => setDrawerOpen(true)}
              />
            )}
            <Brand
              name={siteName}
              suffix={small ? undefined : t('auth.adminTitle')}
              showMark={style.showLogo}
            />
          </Flex>
          {style.showHeadRightTool && (
            <Space size={small ? 2 : 12}>
              <LanguageSwitch compact={small} />
              <ThemeSwitch />
              <UserMenu user={user} onLogout={onLogout} compact={small} />
            </Space>
          )}
        </Flex>
      </Layout.Header>
      <Layout hasSider={!drawerMode}>
        {!drawerMode && (
          <Layout.Sider
            width={siderWidth}
            breakpoint="lg"
            collapsible
            collapsed={collapsed}
            onCollapse={setCollapsed}
            collapsedWidth={small ? 0 : 64}
            style={{
              position: 'sticky',
              top: `calc(${top} + ${headerHeight}px)`,
              height: `calc(100vh - ${top} - ${headerHeight}px)`,
              overflow: 'auto',
              borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            <nav aria-label="menu" style={{ paddingTop: 8 }}>
              <AdminMenu collapsed={collapsed} />
            </nav>
          </Layout.Sider>
        )}
        <Layout.Content style={{ padding: small ? 16 : 24, minWidth: 0 }}>
          <LeaveGuard />
          <Outlet />
        </Layout.Content>
      </Layout>
      {drawerMode && (
        <Drawer
          placement="left"
          size={264}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title={<Brand name={siteName} showMark={style.showLogo} />}
          styles={{ body: { padding: '8px 0' } }}
        >
          <nav aria-label="menu">
            <AdminMenu onNavigate={() => setDrawerOpen(false)} />
          </nav>
        </Drawer>
      )}
    </Layout>
  );
}
