import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '@/lib/feedback';
import { useT } from '@/lib/i18n';
import { loginLocation, safeRedirect } from '@/lib/login-redirect';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { ForgotPasswordForm } from '@/features/account/components/forgot-password-form';
import { useAccountT } from '@/features/account/i18n';

/**
 * `#/forgot-password`: a new password through a code sent to the account's e-mail or phone; then
 * the login page, still carrying the path the sign-in was for.
 */
export function ForgotPasswordPage() {
  const { t: tCore } = useT();
  const t = useAccountT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = loginLocation(safeRedirect(params.get('redirect')));
  return (
    <AuthScreen
      title={t('account.resetTitle')}
      subtitle={t('account.resetSubtitle')}
      footer={<Link to={login}>{tCore('auth.login')}</Link>}
    >
      <ForgotPasswordForm
        onSuccess={() => {
          toast.success(t('account.resetDone'));
          void navigate(login, { replace: true });
        }}
      />
    </AuthScreen>
  );
}
