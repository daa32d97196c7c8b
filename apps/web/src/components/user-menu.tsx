import { useEffect, type ReactNode } from 'react';
import { Avatar, Button, theme } from 'antd';
import type { MenuProps } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import type { PublicUser } from '@atrium/shared';
import { useT } from '@/lib/i18n';
import { ActionMenu } from './action-menu';
import { displayName } from '@/stores/user-store';

export interface UserMenuProps {
  user: PublicUser;
  onLogout: () => void;
  compact?: boolean;
  /** Entries shown above sign-out, e.g. the member's profile. */
  links?: { key: string; label: string; icon?: ReactNode; onClick: () => void }[];
  /** Opens the menu when it turns true: its button was clicked while the menu was loading. */
  openRequested?: boolean;
  /** Called once that request has opened the menu: the click it answered is spent. */
  onOpenRequestMet?: () => void;
}

export function UserAvatar({ user }: { user: PublicUser }) {
  const { token } = theme.useToken();
  return (
    <Avatar size={28} src={user.avatar || undefined} style={{ background: token.colorPrimary }}>
      {Array.from(displayName(user))[0]?.toUpperCase()}
    </Avatar>
  );
}

/** The signed-in person's button in the header; its menu holds sign-out. */
export function UserMenu({
  user,
  onLogout,
  compact = false,
  links = [],
  openRequested = false,
  onOpenRequestMet,
}: UserMenuProps) {
  const { t } = useT();
  useEffect(() => {
    if (openRequested) onOpenRequestMet?.();
  }, [openRequested, onOpenRequestMet]);
  const { token } = theme.useToken();
  const name = displayName(user);
  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      label: (
        <span style={{ color: token.colorTextSecondary }}>{t('auth.signedInAs', { name })}</span>
      ),
    },
    { type: 'divider' },
    ...links.map(({ key, label, icon }) => ({ key, label, icon })),
    { key: 'logout', icon: <LogoutOutlined />, label: t('auth.logout'), danger: true },
  ];
  return (
    <ActionMenu
      placement="bottomRight"
      items={items}
      openRequested={openRequested}
      onAction={({ key }) =>
        key === 'logout' ? onLogout() : links.find((l) => l.key === key)?.onClick()
      }
    >
      {/* Named by the name it shows (the avatar's initial is left out of the name); narrow, by
          a label holding the same name. */}
      <Button
        type="text"
        aria-label={compact ? name : undefined}
        style={{ paddingInline: 6, height: 40 }}
      >
        <span aria-hidden style={{ display: 'inline-flex' }}>
          <UserAvatar user={user} />
        </span>
        {!compact && (
          <span style={{ maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {name}
          </span>
        )}
      </Button>
    </ActionMenu>
  );
}
