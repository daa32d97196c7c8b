import type { MemberView } from '@atrium/shared/contract/members';
import { PasswordResetDialog } from '@/components/password-reset-dialog';
import { memberPasswordRule } from '@/lib/password-rules';
import { useResetMemberPassword } from '../api/reset-member-password';
import { useMembersT } from '../i18n';

export interface MemberPasswordDialogProps {
  member: MemberView | undefined;
  onClose: () => void;
}

export function MemberPasswordDialog({ member, onClose }: MemberPasswordDialogProps) {
  const t = useMembersT();
  return (
    <PasswordResetDialog
      account={member}
      texts={{
        title: member ? t('members.resetTitle', { name: member.username }) : '',
        hint: t('members.resetHint'),
        passwordHint: t('members.passwordHint'),
      }}
      rule={memberPasswordRule}
      reset={useResetMemberPassword()}
      onClose={onClose}
    />
  );
}
