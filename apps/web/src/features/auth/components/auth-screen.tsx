import type { ReactNode } from 'react';
import { Card, Flex, Space, Typography, theme } from 'antd';
import { SiteMark } from '@/components/brand';
import { LanguageSwitch, ThemeSwitch } from '@/components/header-tools';

export interface AuthScreenProps {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card both login pages sit in. */
export function AuthScreen({ title, subtitle, children, footer }: AuthScreenProps) {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      style={{
        minHeight: '100vh',
        background: `radial-gradient(1200px 600px at 10% -10%, ${token.colorPrimaryBg}, transparent 60%), radial-gradient(900px 500px at 110% 110%, ${token.colorInfoBg}, transparent 60%), ${token.colorBgLayout}`,
      }}
    >
      <Flex justify="flex-end" align="center" gap={12} style={{ padding: '16px 20px' }}>
        <LanguageSwitch />
        <ThemeSwitch />
      </Flex>
      {/* Its paddings shrink on a phone (styles.css), so a 320 px screen keeps room for the
          fields' words beside their icons and the captcha image. */}
      <Flex flex={1} align="center" justify="center" className="atrium-auth-frame">
        <Card
          className="atrium-auth-card"
          style={{ width: '100%', maxWidth: 400, boxShadow: token.boxShadowTertiary }}
        >
          <Space orientation="vertical" size={4} style={{ width: '100%', marginBottom: 24 }}>
            <SiteMark size={40} />
            <Typography.Title level={3} style={{ margin: '16px 0 0' }}>
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{subtitle}</Typography.Text>
          </Space>
          {children}
          {footer && <div style={{ marginTop: 16, textAlign: 'center' }}>{footer}</div>}
        </Card>
      </Flex>
    </Flex>
  );
}
