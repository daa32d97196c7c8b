import { Navigate, Link, useNavigate, useSearchParams } from 'react-router';
import { Flex, Space } from 'antd';
import { useT } from '@/lib/i18n';
import { authLocation, safeRedirect } from '@/lib/login-redirect';
import { useConfigStore } from '@/stores/config-store';
import { useUserStore } from '@/stores/user-store';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { LoginForm } from '@/features/auth/components/login-form';
import { useAccountT } from '@/features/account/i18n';

export function LoginPage() {
  const { t } = useT();
  const tAccount = useAccountT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const siteName = useConfigStore((s) => s.config.siteName) || t('app.name');
  const signedIn = useUserStore((s) => s.user.id > 0);

  if (signedIn) return <Navigate to={target} replace />;
  return (
    <AuthScreen
      title={t('auth.memberTitle', { site: siteName })}
      subtitle={t('auth.memberSubtitle')}
      footer={
        <Flex vertical gap={8} align="center">
          <Space separator="·" wrap style={{ justifyContent: 'center' }}>
            <Link to={authLocation('/forgot-password', target)}>{tAccount('account.forgot')}</Link>
            <span>
              {tAccount('account.noAccount')}{' '}
              <Link to={authLocation('/register', target)}>{tAccount('account.goRegister')}</Link>
            </span>
          </Space>
          <Link to="/">{t('auth.backHome')}</Link>
        </Flex>
      }
    >
      <LoginForm onSuccess={() => void navigate(target, { replace: true })} />
    </AuthScreen>
  );
}
