import { Col, Flex, Row, Skeleton, Card, Typography } from 'antd';
import { Navigate, useLocation } from 'react-router';
import { loginLocation } from '@/lib/login-redirect';
import { useUserStore } from '@/stores/user-store';
import { useProfile } from '@/features/account/api/get-profile';
import { ChangePasswordCard } from '@/features/account/components/change-password-card';
import { ProfileCard } from '@/features/account/components/profile-card';
import { useAccountT } from '@/features/account/i18n';

/** `#/profile`: avatar, nickname and password of the signed-in member. */
export function ProfilePage() {
  const location = useLocation();
  const signedIn = useUserStore((s) => s.user.id > 0);
  if (!signedIn) return <Navigate to={loginLocation(location.pathname)} replace />;
  return <Profile />;
}

function Profile() {
  const t = useAccountT();
  const query = useProfile();
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('account.profileTitle')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('account.profileSubtitle')}</Typography.Text>
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          {query.data ? (
            <ProfileCard key={query.data.id} profile={query.data} />
          ) : (
            <Card>
              <Skeleton active avatar />
            </Card>
          )}
        </Col>
        <Col xs={24} lg={10}>
          <ChangePasswordCard />
        </Col>
      </Row>
    </Flex>
  );
}
