import { useMemo, useState } from 'react';
import {
  Button,
  Col,
  Divider,
  Empty,
  Flex,
  Form,
  Input,
  Popconfirm,
  Row,
  Select,
  Space,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { DeleteOutlined, SaveOutlined } from '@ant-design/icons';
import { adminMenu, adminMenuFlags } from '@atrium/shared/menu';
import { ruleTree, rulesFromTicked, splitRules } from '@atrium/shared/role-rules';
import type { RoleView } from '@atrium/shared/contract/admins';
import { useCreateRole } from '../api/create-role';
import { useDeleteRole } from '../api/delete-role';
import { useEditRole } from '../api/edit-role';
import { useRolesT } from '../i18n';
import { MenuPreview } from './menu-preview';
import { MenuRulesTree } from './menu-rules-tree';
import { confirmAction } from '@/lib/async-handler';
import { useUnsavedChanges } from '@/components/unsaved-changes/unsaved-changes';

const rulePattern = /^[A-Za-z0-9_*/.:-]{1,200}$/;

export interface RoleEditorProps {
  /** The role to edit; undefined edits a new one. Remount (key) to switch roles. */
  role: RoleView | undefined;
  onSaved: (role: RoleView) => void;
  onDeleted: () => void;
}

/** The editor's boxes: the admin menu and the file library's four permissions. */
const tree = ruleTree(adminMenu, adminMenuFlags);

/** Name, menu checkboxes, free-form rules and a live preview of the menu the role will see. */
export function RoleEditor({ role, onSaved, onDeleted }: RoleEditorProps) {
  const t = useRolesT();
  const { token } = theme.useToken();
  const initial = useMemo(() => splitRules(tree, role?.rules ?? []), [role]);
  const [name, setName] = useState(role?.name ?? '');
  const [ticked, setTicked] = useState<string[]>(initial.ticked);
  const [custom, setCustom] = useState<string[]>(initial.custom);
  const [nameError, setNameError] = useState(false);
  const create = useCreateRole();
  const edit = useEditRole();
  const remove = useDeleteRole();

  const invalid = custom.filter((rule) => !rulePattern.test(rule));
  const rules = useMemo(
    () => [...new Set([...rulesFromTicked(tree, ticked), ...custom])],
    [ticked, custom],
  );
  const initialRules = useMemo(
    () => new Set([...rulesFromTicked(tree, initial.ticked), ...initial.custom]),
    [initial],
  );
  // Leaving the page or opening another role asks first while this differs from what is saved.
  useUnsavedChanges(
    name.trim() !== (role?.name ?? '') ||
      rules.length !== initialRules.size ||
      rules.some((rule) => !initialRules.has(rule)),
  );

  const save = async () => {
    const trimmed = name.trim();
    setNameError(trimmed === '');
    if (trimmed === '' || invalid.length > 0) return;
    const saved = role
      ? await edit.mutateAsync({ id: role.id, name: trimmed, rules })
      : await create.mutateAsync({ name: trimmed, rules });
    onSaved(saved);
  };

  const held = (role?.adminCount ?? 0) > 0;

  return (
    <Flex vertical gap={16}>
      <Flex align="center" justify="space-between" gap={12} wrap>
        <Space size={8} align="baseline">
          <Typography.Title level={4} style={{ margin: 0 }}>
            {role ? role.name : t('roles.newTitle')}
          </Typography.Title>
          {role && (
            <Typography.Text type="secondary">
              {t('roles.adminCount', { count: role.adminCount })}
            </Typography.Text>
          )}
        </Space>
        <Space>
          {role && (
            <Tooltip title={held ? t('roles.deleteHeld') : undefined}>
              <Popconfirm
                title={t('roles.confirmDelete', { name: role.name })}
                disabled={held}
                okButtonProps={{ danger: true }}
                onConfirm={confirmAction(() => remove.mutateAsync(role.id).then(onDeleted))}
              >
                <Button danger icon={<DeleteOutlined />} disabled={held}>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            </Tooltip>
          )}
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={create.isPending || edit.isPending}
            onClick={() => void save().catch(() => undefined)}
          >
            {role ? t('common.save') : t('roles.create')}
          </Button>
        </Space>
      </Flex>

      <Form layout="vertical" requiredMark={false} onSubmitCapture={(e) => e.preventDefault()}>
        <Form.Item
          label={t('roles.name')}
          htmlFor="role-name"
          validateStatus={nameError ? 'error' : undefined}
          help={nameError ? t('roles.required') : undefined}
          style={{ maxWidth: 420 }}
        >
          <Input
            id="role-name"
            value={name}
            maxLength={64}
            placeholder={t('roles.namePlaceholder')}
            onChange={(e) => setName(e.target.value)}
          />
        </Form.Item>

        <Row gutter={[24, 16]}>
          <Col xs={24} lg={13}>
            <Form.Item label={t('roles.menuRules')} extra={t('roles.menuRulesHelp')}>
              <div
                style={{
                  border: `1px solid ${token.colorBorderSecondary}`,
                  borderRadius: token.borderRadiusLG,
                  padding: '8px 4px',
                }}
              >
                <MenuRulesTree tree={tree} ticked={ticked} rules={rules} onChange={setTicked} />
              </div>
            </Form.Item>
            <Form.Item
              label={t('roles.customRules')}
              htmlFor="role-custom-rules"
              extra={t('roles.customRulesHelp')}
              validateStatus={invalid.length > 0 ? 'error' : undefined}
              help={
                invalid.length > 0
                  ? t('roles.invalidRule', { rule: invalid.join(', ') })
                  : undefined
              }
            >
              <Select
                id="role-custom-rules"
                mode="tags"
                value={custom}
                tokenSeparators={[',', ' ']}
                open={false}
                suffix={null}
                placeholder={t('roles.customPlaceholder')}
                onChange={(values: string[]) =>
                  setCustom(values.map((v) => v.trim()).filter(Boolean))
                }
              />
            </Form.Item>
          </Col>
          <Col xs={24} lg={11}>
            <div
              style={{
                background: token.colorFillQuaternary,
                borderRadius: token.borderRadiusLG,
                padding: 16,
              }}
            >
              <Typography.Text strong>{t('roles.preview')}</Typography.Text>
              <div style={{ marginTop: 8 }}>
                <MenuPreview menu={adminMenu} rules={rules} />
              </div>
              <Divider style={{ marginBlock: 12 }} />
              <Typography.Text strong>{t('roles.storedRules')}</Typography.Text>
              <div style={{ marginTop: 8 }} data-testid="stored-rules">
                {rules.length === 0 ? (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('roles.noRules')} />
                ) : (
                  <Flex wrap gap={6}>
                    {rules.map((rule) => (
                      <Tag
                        key={rule}
                        style={{ marginInlineEnd: 0, fontFamily: token.fontFamilyCode }}
                      >
                        {rule}
                      </Tag>
                    ))}
                  </Flex>
                )}
              </div>
            </div>
          </Col>
        </Row>
      </Form>
    </Flex>
  );
}
