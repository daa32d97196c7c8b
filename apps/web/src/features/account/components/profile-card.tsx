import { useState } from 'react';
import {
  Avatar,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  Space,
  Typography,
  theme,
} from 'antd';
import { DeleteOutlined, UserOutlined } from '@ant-design/icons';
import type { Profile } from '@atrium/shared/contract/accounts-rules';
import { UploadButton } from '@/components/file-library/upload-button/upload-button';
import { toast } from '@/lib/feedback';
import { assetUrl } from '@/lib/urls';
import { useSaveProfile } from '../api/save-profile';
import { useAccountT } from '../i18n';

interface ProfileValues {
  nickname: string;
}

/** Avatar (an image uploaded into the member's library) and nickname, with the fixed details. */
export function ProfileCard({ profile }: { profile: Profile }) {
  const t = useAccountT();
  const { token } = theme.useToken();
  const [form] = Form.useForm<ProfileValues>();
  const [avatar, setAvatar] = useState(profile.avatar);
  const save = useSaveProfile();
  const initial = Array.from(profile.nickname || profile.username)[0]?.toUpperCase();
  const saved = () => toast.success(t('account.profileSaved'));
  // A new or removed avatar is saved at once, with the nickname as last saved.
  const saveAvatar = (next: string) => {
    setAvatar(next);
    save.mutate({ nickname: profile.nickname, avatar: next }, { onSuccess: saved });
  };

  return (
    <Card title={t('account.basicInfo')}>
      {/* Outside the form: antd shows file inputs inside form items, the button's hidden one too. */}
      <div style={{ marginBottom: 24 }}>
        <Typography.Text style={{ display: 'block', marginBottom: 8 }}>
          {t('account.avatar')}
        </Typography.Text>
        <Flex align="center" gap={16} wrap>
          <Avatar
            size={72}
            src={avatar ? assetUrl(avatar) : undefined}
            icon={avatar || initial ? undefined : <UserOutlined />}
            style={{ background: token.colorPrimary, fontSize: 28, flex: 'none' }}
            data-testid="profile-avatar"
          >
            {initial}
          </Avatar>
          <Space wrap>
            <UploadButton
              category="image"
              autoSave
              multiple={false}
              width="auto"
              onUploaded={(result) => saveAvatar(result.path)}
            >
              {t('account.uploadAvatar')}
            </UploadButton>
            {avatar && (
              <Button icon={<DeleteOutlined />} onClick={() => saveAvatar('')}>
                {t('account.removeAvatar')}
              </Button>
            )}
          </Space>
        </Flex>
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
          {t('account.avatarHelp')}
        </Typography.Text>
      </div>
      <Form<ProfileValues>
        form={form}
        layout="vertical"
        initialValues={{ nickname: profile.nickname }}
        onFinish={({ nickname }) =>
          save.mutate({ nickname: nickname.trim(), avatar }, { onSuccess: saved })
        }
      >
        <Form.Item
          name="nickname"
          label={t('account.nickname')}
          rules={[{ required: true, whitespace: true, message: t('account.nicknameRequired') }]}
        >
          <Input maxLength={50} style={{ maxWidth: 360 }} />
        </Form.Item>
        <Descriptions
          column={1}
          size="small"
          style={{ marginBottom: 20 }}
          items={[
            { key: 'username', label: t('account.username'), children: profile.username },
            {
              key: 'email',
              label: t('account.email'),
              children: profile.email ?? (
                <Typography.Text type="secondary">{t('account.notSet')}</Typography.Text>
              ),
            },
            {
              key: 'phone',
              label: t('account.phone'),
              children: profile.phone ?? (
                <Typography.Text type="secondary">{t('account.notSet')}</Typography.Text>
              ),
            },
            {
              key: 'since',
              label: t('account.memberSince'),
              children: new Date(profile.createdAt).toLocaleDateString(),
            },
          ]}
        />
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
