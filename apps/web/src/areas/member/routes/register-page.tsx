import { Navigate, Link, useNavigate } from 'react-router';
import { toast } from '@/lib/feedback';
import { useT } from '@/lib/i18n';
import { useConfigStore } from '@/stores/config-store';
import { useUserStore } from '@/stores/user-store';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { RegisterForm } from '@/features/account/components/register-form';
import { useAccountT } from '@/features/account/i18n';

/** `#/register`: sign-up; the new member is signed in and lands on the home page. */
export function RegisterPage() {
  const { t: tCore } = useT();
  const t = useAccountT();
  const navigate = useNavigate();
  const siteName = useConfigStore((s) => s.config.siteName) || tCore('app.name');
  const signedIn = useUserStore((s) => s.user.id > 0);

  if (signedIn) return <Navigate to="/" replace />;
  return (
    <AuthScreen
      title={t('account.registerTitle', { site: siteName })}
      subtitle={t('account.registerSubtitle')}
      footer={
        <span>
          {t('account.haveAccount')} <Link to="/login">{t('account.goLogin')}</Link>
        </span>
      }
    >
      <RegisterForm
        onSuccess={() => {
          toast.success(t('account.registered'));
          void navigate('/', { replace: true });
        }}
      />
    </AuthScreen>
  );
}
