import { useState, type ReactNode } from 'react';
import { Button, Flex, type MenuProps } from 'antd';
import {
  DownloadOutlined,
  FileMarkdownOutlined,
  FileTextOutlined,
  ImportOutlined,
  LinkOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import type { ConversationRecord } from '@atrium/shared/contract/chat';
import type { ChatExportRequest } from '@atrium/shared/contract/chat-export';
import { currentLanguage } from '@/lib/i18n';
import { ActionMenu } from '@/components/action-menu';
import { toast } from '@/lib/feedback';
import { downloadExport } from '../api/export-conversations';
import { useChatShareT } from '../share-i18n';
import { ImportDialog } from './import-dialog';
import { ShareDialog } from './share-dialog';
import { ShareLinksDialog } from './share-links-dialog';

type MenuItem = NonNullable<MenuProps['items']>[number];

/** Downloads an export in the interface's language and the browser's time zone. */
async function download(request: Pick<ChatExportRequest, 'conversationId' | 'format'>) {
  const name = await downloadExport({
    ...request,
    lang: currentLanguage() === 'en' ? 'en' : 'zh-CN',
    utcOffset: -new Date().getTimezoneOffset(),
  });
  return name;
}

const archiveKeys = new Set(['exportMarkdown', 'exportJson', 'share']);

/**
 * What a conversation's menu adds: export it as Markdown or JSON, share it. `run` answers true
 * for the keys it took; `dialogs` renders the share dialog, which gives the focus back through
 * `returnFocus` when it closes.
 */
export function useConversationArchive(returnFocus?: () => void): {
  items: MenuItem[];
  run: (key: string, conversation: ConversationRecord) => boolean;
  dialogs: ReactNode;
} {
  const t = useChatShareT();
  const [sharing, setSharing] = useState<ConversationRecord>();
  const items: MenuItem[] = [
    { type: 'divider' },
    { key: 'exportMarkdown', icon: <FileMarkdownOutlined />, label: t('chatShare.exportMarkdown') },
    { key: 'exportJson', icon: <FileTextOutlined />, label: t('chatShare.exportJson') },
    { key: 'share', icon: <ShareAltOutlined />, label: t('chatShare.share') },
    { type: 'divider' },
  ];
  const run = (key: string, conversation: ConversationRecord) => {
    if (!archiveKeys.has(key)) return false;
    if (key === 'share') setSharing(conversation);
    else {
      void download({
        conversationId: conversation.id,
        format: key === 'exportJson' ? 'json' : 'markdown',
      }).then((name) => name && toast.success(t('chatShare.exported', { name })));
    }
    return true;
  };
  return {
    items,
    run,
    dialogs: (
      <ShareDialog
        conversation={sharing}
        onClose={() => setSharing(undefined)}
        afterClose={returnFocus}
      />
    ),
  };
}

/** Under the conversation list: export all, import, and the member's share links. */
export function ArchiveBar({ roomId }: { roomId: number }) {
  const t = useChatShareT();
  const [importing, setImporting] = useState(false);
  const [links, setLinks] = useState(false);
  return (
    <Flex
      gap={4}
      wrap="wrap"
      justify="center"
      style={{ padding: '8px', borderTop: '1px solid var(--ant-color-border-secondary)' }}
    >
      <ActionMenu
        items={[
          {
            key: 'markdown',
            icon: <FileMarkdownOutlined />,
            label: t('chatShare.exportAllMarkdown'),
          },
          { key: 'json', icon: <FileTextOutlined />, label: t('chatShare.exportAllJson') },
        ]}
        onAction={({ key }) =>
          void download({ format: key === 'json' ? 'json' : 'markdown' }).then(
            (name) => name && toast.success(t('chatShare.exported', { name })),
          )
        }
      >
        <Button size="small" type="text" icon={<DownloadOutlined />}>
          {t('chatShare.exportAll')}
        </Button>
      </ActionMenu>
      <Button size="small" type="text" icon={<ImportOutlined />} onClick={() => setImporting(true)}>
        {t('chatShare.import')}
      </Button>
      <Button size="small" type="text" icon={<LinkOutlined />} onClick={() => setLinks(true)}>
        {t('chatShare.myLinks')}
      </Button>
      <ImportDialog open={importing} roomId={roomId} onClose={() => setImporting(false)} />
      <ShareLinksDialog open={links} onClose={() => setLinks(false)} />
    </Flex>
  );
}
