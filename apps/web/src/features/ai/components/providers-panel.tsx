import { useState } from 'react';
import { Button, Card, Empty, Flex, Space, Spin, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import type { ModelRecord, ProviderRecord } from '@atrium/shared/contract/chat';
import { RowActions } from '@/components/row-actions';
import { confirmDialog } from '@/lib/feedback';
import { useDeleteModel } from '../api/delete-model';
import { useDeleteProvider } from '../api/delete-provider';
import { useProviders } from '../api/list-providers';
import { useAiT } from '../i18n';
import { ContextLength } from './context-length';
import { ModelDialog, type ModelTarget } from './model-dialog';
import { ProviderDialog } from './provider-dialog';
import { asyncHandler } from '@/lib/async-handler';
import { ResponsiveTable } from '@/components/responsive-table/responsive-table';

/** Every provider as a card holding its models, with their dialogs. */
export function ProvidersPanel({
  creating,
  onCreated,
}: {
  creating: boolean;
  onCreated: () => void;
}) {
  const t = useAiT();
  const providers = useProviders();
  const removeProvider = useDeleteProvider();
  const removeModel = useDeleteModel();
  const [editing, setEditing] = useState<ProviderRecord | null>();
  const [modelTarget, setModelTarget] = useState<ModelTarget>();
  const open = creating ? null : editing;

  const modelColumns = (provider: ProviderRecord) => [
    { title: t('ai.modelTitle'), dataIndex: 'title', key: 'title' },
    {
      title: t('ai.modelName'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string) => <Typography.Text code>{name}</Typography.Text>,
    },
    {
      title: t('ai.vision'),
      dataIndex: 'vision',
      key: 'vision',
      render: (vision: boolean) => (vision ? <Tag color="purple">{t('ai.yes')}</Tag> : t('ai.no')),
    },
    {
      title: t('ai.context'),
      dataIndex: 'contextLength',
      key: 'contextLength',
      responsive: ['md' as const],
      render: (contextLength: number) => <ContextLength value={contextLength} />,
    },
    {
      title: t('ai.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      render: (enabled: boolean) =>
        enabled ? <Tag color="green">{t('ai.yes')}</Tag> : <Tag>{t('ai.no')}</Tag>,
    },
    { title: t('ai.sort'), dataIndex: 'sort', key: 'sort', responsive: ['md' as const] },
    {
      title: t('ai.actions'),
      key: 'actions',
      render: (_: unknown, model: ModelRecord) => (
        <RowActions
          editLabel={t('common.edit')}
          deleteLabel={t('common.delete')}
          confirmDelete={t('ai.confirmDeleteModel', { title: model.title })}
          onEdit={() => setModelTarget({ providerId: provider.id, model })}
          onDelete={() => removeModel.mutate(model.id)}
        />
      ),
    },
  ];

  if (providers.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  return (
    <Flex vertical gap={16}>
      {providers.data?.length === 0 && <Empty description={t('ai.noProviders')} />}
      {providers.data?.map((provider) => (
        <Card
          key={provider.id}
          title={
            <Flex vertical gap={2} style={{ padding: '10px 0', minWidth: 0 }}>
              <span>{provider.name}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 400 }} ellipsis>
                {provider.baseUrl}
              </Typography.Text>
            </Flex>
          }
          extra={
            <Space wrap>
              <Tag icon={<KeyOutlined />} color={provider.hasKey ? 'green' : 'default'}>
                {provider.hasKey ? t('ai.keySet', { hint: provider.keyHint }) : t('ai.keyNone')}
              </Tag>
              <Button
                icon={<EditOutlined />}
                onClick={() => setEditing(provider)}
                aria-label={t('ai.editProvider')}
              />
              <Button
                danger
                icon={<DeleteOutlined />}
                aria-label={t('ai.deleteProvider')}
                onClick={asyncHandler(async () => {
                  if (await confirmDialog(t('ai.confirmDeleteProvider', { name: provider.name }))) {
                    removeProvider.mutate(provider.id);
                  }
                })}
              />
            </Space>
          }
          styles={{ body: { padding: 0 } }}
        >
          <ResponsiveTable<ModelRecord>
            rowKey="id"
            size="middle"
            pagination={false}
            dataSource={provider.models}
            columns={modelColumns(provider)}
            locale={{ emptyText: t('ai.noModels') }}
            scroll={{ x: 'max-content' }}
            footer={() => (
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => setModelTarget({ providerId: provider.id })}
              >
                {t('ai.newModel')}
              </Button>
            )}
          />
        </Card>
      ))}
      <ProviderDialog
        provider={open}
        onClose={() => {
          setEditing(undefined);
          onCreated();
        }}
      />
      <ModelDialog target={modelTarget} onClose={() => setModelTarget(undefined)} />
    </Flex>
  );
}
