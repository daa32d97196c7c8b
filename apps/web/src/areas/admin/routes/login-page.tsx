import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Typography } from 'antd';
import { useT } from '@/lib/i18n';
import { safeRedirect } from '@/lib/login-redirect';
import { memberUrl } from '@/lib/urls';
import { useConfigStore } from '@/stores/config-store';
import { useUserStore } from '@/stores/user-store';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { LoginForm } from '@/features/auth/components/login-form';

export function LoginPage() {
  const { t } = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const siteName = useConfigStore((s) => s.config.siteName) || t('app.name');
  const signedIn = useUserStore((s) => s.user.id > 0);

  if (signedIn) return <Navigate to={target} replace />;
  return (
    <AuthScreen
      title={`${siteName} ${t('auth.adminTitle')}`}
      subtitle={t('auth.adminSubtitle')}
      footer={
        <Typography.Link href={memberUrl()} type="secondary">
          {t('auth.backHome')}
        </Typography.Link>
      }
    >
      <LoginForm onSuccess={() => void navigate(target, { replace: true })} />
    </AuthScreen>
  );
}
