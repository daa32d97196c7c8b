import { useState } from 'react';
import { Button, Card, Flex, Skeleton, Switch, Typography } from 'antd';
import { asyncHandler } from '@/lib/async-handler';
import { useUnsavedChanges } from '@/components/unsaved-changes/unsaved-changes';
import { useSmallWindow } from '@/lib/use-media-query';
import { useShareSettings } from '../api/get-share-settings';
import { useSaveShareSettings } from '../api/save-share-settings';
import { useChatShareT } from '../share-i18n';

/** The site setting of conversation share links: whether members may make public ones. */
export function ShareSettingsCard() {
  const t = useChatShareT();
  const settings = useShareSettings();
  // Sized as the site settings cards above it are.
  const small = useSmallWindow();
  const save = useSaveShareSettings();
  // The switch as the admin set it, until saved; otherwise the stored value.
  const [edited, setEdited] = useState<boolean>();
  const publicLinks = edited ?? settings.data?.publicLinks ?? false;
  useUnsavedChanges(settings.data !== undefined && publicLinks !== settings.data.publicLinks);

  return (
    <Card size={small ? 'small' : 'default'} title={t('chatShare.settingsTitle')}>
      {settings.data ? (
        <Flex vertical gap={12} align="flex-start">
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('chatShare.settingsHint')}
          </Typography.Paragraph>
          <Flex gap={8} align="center">
            <Switch id="chat-share-public" checked={publicLinks} onChange={setEdited} />
            <label htmlFor="chat-share-public">{t('chatShare.settingsPublic')}</label>
          </Flex>
          <Button
            type="primary"
            loading={save.isPending}
            disabled={publicLinks === settings.data.publicLinks}
            onClick={asyncHandler(async () => {
              await save.mutateAsync({ publicLinks });
              setEdited(undefined);
            })}
          >
            {t('chatShare.settingsSave')}
          </Button>
        </Flex>
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} />
      )}
    </Card>
  );
}
