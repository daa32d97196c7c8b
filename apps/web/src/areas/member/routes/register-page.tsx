import { Navigate, Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '@/lib/feedback';
import { useT } from '@/lib/i18n';
import { authLocation, safeRedirect } from '@/lib/login-redirect';
import { useConfigStore } from '@/stores/config-store';
import { useUserStore } from '@/stores/user-store';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { RegisterForm } from '@/features/account/components/register-form';
import { useAccountT } from '@/features/account/i18n';

/**
 * `#/register`: sign-up; the new member is signed in and lands where the sign-in was taking them
 * (`?redirect=`, passed on by the login page), else on the home page.
 */
export function RegisterPage() {
  const { t: tCore } = useT();
  const t = useAccountT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const siteName = useConfigStore((s) => s.config.siteName) || tCore('app.name');
  const signedIn = useUserStore((s) => s.user.id > 0);

  if (signedIn) return <Navigate to={target} replace />;
  return (
    <AuthScreen
      title={t('account.registerTitle', { site: siteName })}
      subtitle={t('account.registerSubtitle')}
      footer={
        <span>
          {t('account.haveAccount')}{' '}
          <Link to={authLocation('/login', target)}>{t('account.goLogin')}</Link>
        </span>
      }
    >
      <RegisterForm
        onSuccess={() => {
          toast.success(t('account.registered'));
          void navigate(target, { replace: true });
        }}
      />
    </AuthScreen>
  );
}
