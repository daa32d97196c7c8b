import { Button, Empty, Flex, Spin, Typography, theme } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { RoleView } from '@atrium/shared/contract/admins';
import { useRolesT } from '../i18n';

export interface RoleListProps {
  roles: RoleView[] | undefined;
  loading: boolean;
  /** The selected role id, or 'new'. */
  selected: number | 'new' | undefined;
  onSelect: (id: number | 'new') => void;
}

export function RoleList({ roles, loading, selected, onSelect }: RoleListProps) {
  const t = useRolesT();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={12}>
      <Button type="dashed" block icon={<PlusOutlined />} onClick={() => onSelect('new')}>
        {t('roles.new')}
      </Button>
      {loading && !roles ? (
        <Spin />
      ) : roles && roles.length > 0 ? (
        <Flex vertical gap={4} role="listbox" aria-label={t('roles.list')}>
          {roles.map((role) => {
            const active = role.id === selected;
            return (
              <Button
                key={role.id}
                type="text"
                block
                role="option"
                aria-selected={active}
                onClick={() => onSelect(role.id)}
                style={{
                  height: 'auto',
                  padding: '8px 12px',
                  display: 'block',
                  textAlign: 'start',
                  background: active ? token.colorPrimaryBg : undefined,
                }}
              >
                <Typography.Text
                  strong={active}
                  ellipsis
                  style={{ display: 'block', color: active ? token.colorPrimary : undefined }}
                >
                  {role.name}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('roles.adminCount', { count: role.adminCount })} ·{' '}
                  {t('roles.ruleCount', { count: role.rules.length })}
                </Typography.Text>
              </Button>
            );
          })}
        </Flex>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('roles.empty')} />
      )}
    </Flex>
  );
}
