import dayjs from 'dayjs';
import { Button, Empty, Flex, List, Modal, Spin, Tag, Tooltip, Typography } from 'antd';
import { CopyOutlined, DeleteOutlined, ExportOutlined } from '@ant-design/icons';
import { copyText } from '@/lib/copy';
import { confirmDialog, toast } from '@/lib/feedback';
import { useShares } from '../api/list-shares';
import { useRevokeShare } from '../api/revoke-share';
import { useChatShareT } from '../share-i18n';
import { shareUrl } from './share-dialog';

/** The member's share links: copy, open or revoke each. */
export function ShareLinksDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useChatShareT();
  const shares = useShares(open);
  const revoke = useRevokeShare();
  const records = shares.data?.records ?? [];

  return (
    <Modal
      open={open}
      title={t('chatShare.myLinks')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('chatShare.close')}</Button>}
      destroyOnHidden
    >
      {shares.isPending ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : records.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chatShare.noLinks')} />
      ) : (
        <List
          dataSource={records}
          style={{ maxHeight: '60vh', overflowY: 'auto' }}
          renderItem={(share) => (
            <List.Item key={share.id} data-share-id={share.id}>
              <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
                <Flex gap={6} align="center" style={{ minWidth: 0 }}>
                  <Typography.Text strong ellipsis style={{ minWidth: 0 }}>
                    {share.title}
                  </Typography.Text>
                  <Tag
                    color={share.public && shares.data?.publicLinks ? 'green' : undefined}
                    style={{ flex: 'none', marginInlineEnd: 0 }}
                  >
                    {share.public && shares.data?.publicLinks
                      ? t('chatShare.publicLink')
                      : t('chatShare.signInNeeded')}
                  </Tag>
                </Flex>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('chatShare.linkMeta', {
                    room: share.roomTitle,
                    count: share.messages,
                    date: dayjs(share.createdAt).format('YYYY-MM-DD HH:mm'),
                  })}
                </Typography.Text>
                <Flex gap={4} wrap="wrap">
                  <Button
                    size="small"
                    icon={<CopyOutlined />}
                    onClick={() => void copyText(shareUrl(share.token))}
                  >
                    {t('chatShare.copy')}
                  </Button>
                  <Tooltip title={t('chatShare.open')}>
                    <Button
                      size="small"
                      icon={<ExportOutlined />}
                      href={shareUrl(share.token)}
                      target="_blank"
                      rel="noopener"
                      aria-label={t('chatShare.open')}
                    />
                  </Tooltip>
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    loading={revoke.isPending && revoke.variables === share.id}
                    onClick={() =>
                      void (async () => {
                        if (
                          await confirmDialog(t('chatShare.confirmRevoke', { title: share.title }))
                        ) {
                          await revoke.mutateAsync(share.id);
                          toast.success(t('chatShare.revoked'));
                        }
                      })().catch(() => undefined)
                    }
                  >
                    {t('chatShare.revoke')}
                  </Button>
                </Flex>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}
