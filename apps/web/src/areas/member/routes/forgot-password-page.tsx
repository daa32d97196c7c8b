import { Link, useNavigate } from 'react-router';
import { toast } from '@/lib/feedback';
import { useT } from '@/lib/i18n';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { ForgotPasswordForm } from '@/features/account/components/forgot-password-form';
import { useAccountT } from '@/features/account/i18n';

/** `#/forgot-password`: a new password through a code sent to the account's e-mail or phone. */
export function ForgotPasswordPage() {
  const { t: tCore } = useT();
  const t = useAccountT();
  const navigate = useNavigate();
  return (
    <AuthScreen
      title={t('account.resetTitle')}
      subtitle={t('account.resetSubtitle')}
      footer={<Link to="/login">{tCore('auth.login')}</Link>}
    >
      <ForgotPasswordForm
        onSuccess={() => {
          toast.success(t('account.resetDone'));
          void navigate('/login', { replace: true });
        }}
      />
    </AuthScreen>
  );
}
