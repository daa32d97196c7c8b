import type { AdminView } from '@atrium/shared/contract/admins';
import { PasswordResetDialog } from '@/components/password-reset-dialog';
import { adminPasswordRule } from '@/lib/password-rules';
import { useResetAdminPassword } from '../api/reset-admin-password';
import { useAdminsT } from '../i18n';

export interface ResetPasswordDialogProps {
  admin: AdminView | undefined;
  onClose: () => void;
}

export function ResetPasswordDialog({ admin, onClose }: ResetPasswordDialogProps) {
  const t = useAdminsT();
  return (
    <PasswordResetDialog
      account={admin}
      texts={{
        title: admin ? t('admins.resetTitle', { name: admin.username }) : '',
        hint: t('admins.resetHint'),
        passwordHint: t('admins.passwordHint'),
      }}
      rule={adminPasswordRule}
      reset={useResetAdminPassword()}
      onClose={onClose}
    />
  );
}
