import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Empty, Input, Modal, Spin, theme, Typography } from 'antd';
import type { InputRef } from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  MessageOutlined,
  MoreOutlined,
  PlusOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import type { ConversationRecord } from '@atrium/shared/contract/chat';
import { ActionMenu } from '@/components/action-menu';
import { confirmDialog } from '@/lib/feedback';
import { ArchiveBar, useConversationArchive } from './conversation-archive';
import { useChatT } from '../i18n';
import { asyncHandler } from '@/lib/async-handler';
import { ChatSearchResults } from './chat-search-results';

export interface ConversationListProps {
  roomId: number;
  conversations: ConversationRecord[] | undefined;
  loading: boolean;
  activeId: number | undefined;
  onSelect: (id: number) => void;
  onCreate: () => void;
  onRename: (id: number, title: string) => Promise<unknown>;
  onDelete: (id: number) => Promise<unknown>;
  /** A search hit was opened (its room and conversation are in the address). */
  onOpened?: () => void;
}

/** The member's conversations in the room: new, pick, rename, delete. */
export function ConversationList({
  roomId,
  conversations,
  loading,
  activeId,
  onSelect,
  onCreate,
  onRename,
  onDelete,
  onOpened,
}: ConversationListProps) {
  const t = useChatT();
  const { token } = theme.useToken();
  const [renaming, setRenaming] = useState<ConversationRecord>();
  const [title, setTitle] = useState('');
  const [typed, setTyped] = useState('');
  const [keywords, setKeywords] = useState('');
  // Searches once typing pauses, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => setKeywords(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const searching = keywords !== '';
  // The "…" button a menu's dialog was opened from: the menu item is gone once the dialog
  // closes, so the focus goes back to this button (or, with its row deleted, the list's search).
  const opener = useRef<HTMLElement | null>(null);
  const search = useRef<InputRef>(null);
  const returnFocus = useCallback(() => {
    if (opener.current?.isConnected) opener.current.focus();
    else search.current?.focus();
  }, []);
  const archive = useConversationArchive(returnFocus);
  const titleBox = useRef<InputRef>(null);
  const saveTitle = asyncHandler(async () => {
    if (renaming) await onRename(renaming.id, title.trim());
    setRenaming(undefined);
  });

  const remove = async (conversation: ConversationRecord) => {
    if (await confirmDialog(t('chat.confirmDelete', { title: conversation.title }))) {
      await onDelete(conversation.id);
    }
    returnFocus();
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <div style={{ padding: 12 }}>
        <Button block type="primary" icon={<PlusOutlined />} onClick={onCreate}>
          {t('chat.newConversation')}
        </Button>
        <Input
          ref={search}
          allowClear
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          prefix={<SearchOutlined style={{ opacity: 0.5 }} />}
          placeholder={t('chat.searchConversations')}
          aria-label={t('chat.searchConversations')}
          maxLength={100}
          style={{ marginTop: 8 }}
        />
      </div>
      <nav
        aria-label={t('chat.conversations')}
        style={{ flex: 1, overflowY: 'auto', padding: '0 8px 12px' }}
      >
        {searching ? (
          <ChatSearchResults
            keywords={keywords}
            roomId={roomId}
            activeId={activeId}
            onOpened={onOpened}
          />
        ) : loading && !conversations ? (
          <Spin style={{ display: 'block', margin: '24px auto' }} />
        ) : !conversations || conversations.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chat.noConversations')} />
        ) : (
          conversations.map((c) => {
            const active = c.id === activeId;
            return (
              <div
                key={c.id}
                className="atrium-conv-row"
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 4,
                  padding: '0 6px 0 0',
                  marginBottom: 2,
                  borderRadius: 8,
                  background: active ? token.colorPrimaryBg : undefined,
                  color: active ? token.colorPrimaryText : undefined,
                }}
              >
                {/* The row opens the conversation; its actions are a control of their own beside it. */}
                <button
                  type="button"
                  className="atrium-conv-select"
                  aria-current={active ? 'true' : undefined}
                  onClick={() => onSelect(c.id)}
                >
                  <MessageOutlined aria-hidden style={{ opacity: 0.6 }} />
                  <Typography.Text ellipsis style={{ flex: 1, color: 'inherit' }}>
                    {c.title}
                  </Typography.Text>
                </button>
                <ActionMenu
                  items={[
                    { key: 'rename', icon: <EditOutlined />, label: t('chat.rename') },
                    ...archive.items,
                    {
                      key: 'delete',
                      icon: <DeleteOutlined />,
                      label: t('common.delete'),
                      danger: true,
                    },
                  ]}
                  onAction={({ key, domEvent }) => {
                    domEvent.stopPropagation();
                    if (archive.run(key, c)) return;
                    if (key === 'rename') {
                      setTitle(c.title);
                      setRenaming(c);
                    } else void remove(c);
                  }}
                >
                  <Button
                    size="small"
                    type="text"
                    aria-label={t('chat.conversationActions')}
                    icon={<MoreOutlined />}
                    onClick={(e) => {
                      e.stopPropagation();
                      opener.current = e.currentTarget;
                    }}
                  />
                </ActionMenu>
              </div>
            );
          })
        )}
      </nav>
      <ArchiveBar roomId={roomId} />
      {archive.dialogs}
      <Modal
        open={renaming !== undefined}
        title={t('chat.renameTitle')}
        onCancel={() => setRenaming(undefined)}
        // The dialog's focus trap starts on its first control (the ×): the title box takes it,
        // its text selected, once the dialog is open.
        afterOpenChange={(open) => open && titleBox.current?.focus({ cursor: 'all' })}
        afterClose={returnFocus}
        okButtonProps={{ disabled: title.trim() === '' }}
        onOk={saveTitle}
        destroyOnHidden
      >
        <Input
          ref={titleBox}
          maxLength={100}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onPressEnter={() => title.trim() !== '' && saveTitle()}
          aria-label={t('chat.renameTitle')}
        />
      </Modal>
    </div>
  );
}
