import { lazy, Suspense, useState } from 'react';
import { Button, Flex, Layout, Space, theme } from 'antd';
import { FolderOpenOutlined, IdcardOutlined, LoadingOutlined } from '@ant-design/icons';
import { Link, Outlet, useMatches, useNavigate } from 'react-router';
import { Brand } from '@/components/brand';
import { LanguageSwitch, ThemeSwitch } from '@/components/header-tools';
import { toast } from '@/lib/feedback';
import { useT } from '@/lib/i18n';
import { useSmallWindow } from '@/lib/use-media-query';
import { useConfigStore } from '@/stores/config-store';
import { displayName, useUserStore } from '@/stores/user-store';
import { useLogout } from '@/features/auth/api/logout';
import { useAccountT } from '@/features/account/i18n';
import { useFilesT } from '@/components/file-library/i18n';
import { useSiteHead } from '@/features/site-settings/hooks/use-site-head';

const contentMaxWidth = 1200;

// The menu (and antd's Menu under it) is only for signed-in members: not part of the first load.
const UserMenu = lazy(async () => ({ default: (await import('@/components/user-menu')).UserMenu }));

export function MemberLayout() {
  const { t } = useT();
  const tAccount = useAccountT();
  const { token } = theme.useToken();
  const small = useSmallWindow();
  const navigate = useNavigate();
  const siteName = useConfigStore((s) => s.config.siteName) || t('app.name');
  useSiteHead(t('app.name'));
  const user = useUserStore((s) => s.user);
  const logout = useLogout();
  const tFiles = useFilesT();
  const [menuWanted, setMenuWanted] = useState(false);

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast.success(t('auth.loggedOut'));
        void navigate('/');
      },
    });

  // A page that asks for it (the chat room) fills the window below the header: no footer, and
  // the page itself never scrolls (except in a very short window: see .atrium-member-full).
  const fullHeight = useMatches().some(
    (match) => (match.handle as { fullHeight?: boolean } | undefined)?.fullHeight === true,
  );

  return (
    <Layout
      className={fullHeight ? 'atrium-member-full' : undefined}
      style={fullHeight ? undefined : { minHeight: '100vh' }}
    >
      <Layout.Header
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 10,
          height: 64,
          paddingInline: small ? 16 : 24,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          backdropFilter: 'saturate(180%) blur(8px)',
        }}
      >
        <Flex
          align="center"
          justify="space-between"
          gap={12}
          style={{ height: '100%', maxWidth: contentMaxWidth, margin: '0 auto' }}
        >
          <Brand name={siteName} />
          <Space size={small ? 8 : 12}>
            <LanguageSwitch compact={small} />
            <ThemeSwitch />
            {user.id > 0 && (
              <Link to="/files">
                <Button
                  type="text"
                  icon={<FolderOpenOutlined />}
                  aria-label={tFiles('files.pageMember')}
                >
                  {small ? null : tFiles('files.pageMember')}
                </Button>
              </Link>
            )}
            {user.id > 0 ? (
              <Suspense
                fallback={
                  // The menu loads on demand: a click before it arrives opens it once it has.
                  <Button
                    type="text"
                    icon={<LoadingOutlined />}
                    aria-label={displayName(user)}
                    aria-busy
                    onClick={() => setMenuWanted(true)}
                  />
                }
              >
                <UserMenu
                  user={user}
                  onLogout={onLogout}
                  compact={small}
                  openRequested={menuWanted}
                  onOpenRequestMet={() => setMenuWanted(false)}
                  links={[
                    {
                      key: 'profile',
                      label: tAccount('account.profile'),
                      icon: <IdcardOutlined />,
                      onClick: () => void navigate('/profile'),
                    },
                  ]}
                />
              </Suspense>
            ) : (
              <Link to="/login">
                <Button type="primary">{t('auth.login')}</Button>
              </Link>
            )}
          </Space>
        </Flex>
      </Layout.Header>
      {fullHeight ? (
        <Layout.Content
          style={{
            padding: small ? '12px 8px' : '24px 24px',
            display: 'flex',
            flexDirection: 'column',
            minHeight: 0,
          }}
        >
          <div className="atrium-full-height" style={{ maxWidth: contentMaxWidth }}>
            <Outlet />
          </div>
        </Layout.Content>
      ) : (
        <>
          <Layout.Content style={{ padding: small ? '20px 16px 40px' : '32px 24px 56px' }}>
            <div style={{ maxWidth: contentMaxWidth, margin: '0 auto' }}>
              <Outlet />
            </div>
          </Layout.Content>
          <Layout.Footer style={{ textAlign: 'center', background: 'transparent' }}>
            <span style={{ color: token.colorTextTertiary }}>
              {t('member.footer', { year: new Date().getFullYear(), site: siteName })}
            </span>
          </Layout.Footer>
        </>
      )}
    </Layout>
  );
}
