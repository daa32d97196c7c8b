import { useState } from 'react';
import { Alert, Button, Checkbox, Flex, Input, Modal, Typography } from 'antd';
import { CopyOutlined, LinkOutlined } from '@ant-design/icons';
import type { ChatShareRecord } from '@atrium/shared/contract/chat-export';
import type { ConversationRecord } from '@atrium/shared/contract/chat';
import { copyText } from '@/lib/copy';
import { asyncHandler } from '@/lib/async-handler';
import { useCreateShare } from '../api/create-share';
import { useShares } from '../api/list-shares';
import { useChatShareT } from '../share-i18n';

/** The address a share link opens: the member app's shared page. */
export function shareUrl(token: string): string {
  return `${window.location.origin}${window.location.pathname}#/share/${token}`;
}

/** A link's address with a copy button. */
export function ShareLinkField({ share }: { share: ChatShareRecord }) {
  const t = useChatShareT();
  const url = shareUrl(share.token);
  return (
    <Flex gap={8} wrap="wrap">
      <Input
        readOnly
        value={url}
        aria-label={t('chatShare.link')}
        onFocus={(e) => e.target.select()}
        style={{ flex: '1 1 240px', minWidth: 0 }}
      />
      <Button type="primary" icon={<CopyOutlined />} onClick={() => void copyText(url)}>
        {t('chatShare.copy')}
      </Button>
    </Flex>
  );
}

/** Makes a share link of a conversation: a snapshot of its shown branch as it is now. */
export function ShareDialog({
  conversation,
  onClose,
  afterClose,
}: {
  conversation: ConversationRecord | undefined;
  onClose: () => void;
  /** Once it has gone: where the focus goes back to (the menu item that opened it is gone). */
  afterClose?: () => void;
}) {
  const t = useChatShareT();
  const shares = useShares(conversation !== undefined);
  const create = useCreateShare();
  const [isPublic, setPublic] = useState(false);
  const [made, setMade] = useState<ChatShareRecord>();
  const publicLinks = shares.data?.publicLinks === true;

  const close = () => {
    setMade(undefined);
    setPublic(false);
    onClose();
  };

  return (
    <Modal
      open={conversation !== undefined}
      title={t('chatShare.createTitle', { title: conversation?.title ?? '' })}
      onCancel={close}
      afterClose={afterClose}
      destroyOnHidden
      footer={
        made ? (
          <Button onClick={close}>{t('chatShare.close')}</Button>
        ) : (
          <Button
            type="primary"
            icon={<LinkOutlined />}
            loading={create.isPending}
            onClick={asyncHandler(async () => {
              if (!conversation) return;
              setMade(
                await create.mutateAsync({
                  conversationId: conversation.id,
                  public: publicLinks && isPublic,
                }),
              );
            })}
          >
            {t('chatShare.create')}
          </Button>
        )
      }
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('chatShare.createHint')}
        </Typography.Paragraph>
        {made ? (
          <ShareLinkField share={made} />
        ) : publicLinks ? (
          <Checkbox checked={isPublic} onChange={(e) => setPublic(e.target.checked)}>
            {t('chatShare.public')}
          </Checkbox>
        ) : shares.data ? (
          <Alert type="info" showIcon title={t('chatShare.publicOff')} />
        ) : null}
      </Flex>
    </Modal>
  );
}
