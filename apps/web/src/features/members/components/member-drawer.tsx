import { Badge, Descriptions, Drawer, Flex, Progress, Skeleton, Statistic, Typography } from 'antd';
import dayjs from 'dayjs';
import { libraries } from '@atrium/shared/contract/files';
import { formatSize } from '@/components/file-library/file-picker/file-record';
import { RelativeTime } from '@/components/relative-time';
import { useMember } from '../api/get-member';
import { useMembersT } from '../i18n';

export interface MemberDrawerProps {
  memberId: number | undefined;
  onClose: () => void;
}

/** One member: account details and how much of the file library they use. */
export function MemberDrawer({ memberId, onClose }: MemberDrawerProps) {
  const t = useMembersT();
  const detail = useMember(memberId);
  const member = detail.data;

  return (
    <Drawer
      open={memberId !== undefined}
      onClose={onClose}
      size={520}
      title={member ? t('members.detailTitle', { name: member.username }) : ' '}
    >
      {!member ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={24}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('members.id')}>{member.id}</Descriptions.Item>
            <Descriptions.Item label={t('members.username')}>{member.username}</Descriptions.Item>
            <Descriptions.Item label={t('members.nickname')}>{member.nickname}</Descriptions.Item>
            <Descriptions.Item label={t('members.email')}>
              {member.email ?? t('members.none')}
            </Descriptions.Item>
            <Descriptions.Item label={t('members.phone')}>
              {member.phone ?? t('members.none')}
            </Descriptions.Item>
            <Descriptions.Item label={t('members.status')}>
              {member.disabled ? (
                <Badge status="error" text={t('members.disabled')} />
              ) : (
                <Badge status="success" text={t('members.enabled')} />
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('members.joined')}>
              {dayjs(member.createdAt).format('YYYY-MM-DD HH:mm')}
            </Descriptions.Item>
            <Descriptions.Item label={t('members.lastActive')}>
              {member.lastActiveAt === null ? (
                t('members.never')
              ) : (
                <RelativeTime value={member.lastActiveAt} />
              )}
            </Descriptions.Item>
          </Descriptions>

          <Flex vertical gap={12}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('members.storage')}
            </Typography.Title>
            <Statistic
              value={formatSize(member.storage.bytes)}
              suffix={
                <Typography.Text type="secondary" style={{ fontSize: 14 }}>
                  {t('members.filesCount', { count: member.storage.files })}
                </Typography.Text>
              }
            />
            {libraries.map((library) => {
              const use = member.storage.libraries[library];
              const share = member.storage.bytes > 0 ? (use.bytes / member.storage.bytes) * 100 : 0;
              return (
                <div key={library}>
                  <Flex justify="space-between">
                    <Typography.Text>{t(`members.library.${library}`)}</Typography.Text>
                    <Typography.Text type="secondary">
                      {t('members.filesCount', { count: use.files })} · {formatSize(use.bytes)}
                    </Typography.Text>
                  </Flex>
                  <Progress
                    percent={Math.round(share)}
                    showInfo={false}
                    size="small"
                    status="normal"
                  />
                </div>
              );
            })}
          </Flex>
        </Flex>
      )}
    </Drawer>
  );
}
