import { useState } from 'react';
import { Button, Flex, theme } from 'antd';
import { ArrowRightOutlined, SearchOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useT } from '@/lib/i18n';
import { useConfigStore } from '@/stores/config-store';
import { displayName, useUserStore } from '@/stores/user-store';
import { useRooms } from '@/features/rooms/api/rooms';
import { RoomsGrid } from '@/features/rooms/components/rooms-grid';
import { useRoomsT } from '@/features/rooms/i18n';
import { SiteBanner } from '@/features/site-settings/components/site-banner';

/** The member home (`#/`): the chat rooms (lazy set "Rooms") under the site's welcome banner. */
export function HomePage() {
  const { t } = useT();
  const tr = useRoomsT();
  const { token } = theme.useToken();
  const siteName = useConfigStore((s) => s.config.siteName) || t('app.name');
  const user = useUserStore((s) => s.user);
  const { rooms, init, failed, retry } = useRooms();
  const [keyword, setKeyword] = useState('');

  return (
    <Flex vertical gap={24}>
      <SiteBanner />
      <section
        style={{
          borderRadius: 16,
          padding: 'clamp(24px, 5vw, 48px) clamp(20px, 5vw, 56px)',
          background: `linear-gradient(135deg, ${token.colorPrimary} 0%, #7c3aed 55%, #06b6d4 120%)`,
          color: '#fff',
          boxShadow: token.boxShadowSecondary,
        }}
      >
        <h1
          style={{
            margin: 0,
            fontSize: 'clamp(26px, 4vw, 38px)',
            fontWeight: 700,
            lineHeight: 1.2,
          }}
        >
          {user.id > 0
            ? tr('rooms.heroBack', { name: displayName(user) })
            : tr('rooms.heroTitle', { site: siteName })}
        </h1>
        <p
          style={{
            color: 'rgba(255,255,255,0.88)',
            fontSize: 16,
            maxWidth: 560,
            margin: '10px 0 20px',
          }}
        >
          {tr('rooms.heroText')}
        </p>
        <Flex gap={12} wrap align="center">
          <label
            className="atrium-search"
            style={{ background: token.colorBgContainer, color: token.colorText }}
          >
            <SearchOutlined style={{ color: token.colorTextTertiary }} />
            <input
              type="search"
              placeholder={tr('rooms.search')}
              aria-label={tr('rooms.search')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
            />
          </label>
          {user.id === 0 && (
            <Link to="/login">
              <Button size="large" style={{ fontWeight: 500 }}>
                {tr('rooms.loginCta')} <ArrowRightOutlined />
              </Button>
            </Link>
          )}
        </Flex>
      </section>
      {init && rooms && rooms.length > 0 && (
        <span style={{ color: token.colorTextSecondary, marginBottom: -8 }}>
          {tr('rooms.count', { count: rooms.length })}
        </span>
      )}
      <RoomsGrid rooms={rooms} init={init} failed={failed} onRetry={retry} keyword={keyword} />
    </Flex>
  );
}
