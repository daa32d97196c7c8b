import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Drawer, Flex, Tag, theme, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import {
  ArrowLeftOutlined,
  DownloadOutlined,
  EyeOutlined,
  MenuOutlined,
  RobotOutlined,
} from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import type { RoomRecord } from '@atrium/shared/contract/chat';
import { fileNameOf } from '@/components/fields/paths';
import { ImageCover } from '@/components/image-cover/image-cover';
import { loginLocation } from '@/lib/login-redirect';
import { useSmallWindow } from '@/lib/use-media-query';
import { assetUrl } from '@/lib/urls';
import { useUserStore } from '@/stores/user-store';
import { useDeleteConversation } from '../api/delete-conversation';
import { useConversations } from '../api/list-conversations';
import { flattenPages, useMessages } from '../api/list-messages';
import { useEditMessage, useShowVersion } from '../api/edit-message';
import { useRegenerateAnswer } from '../api/regenerate-answer';
import { useRenameConversation } from '../api/rename-conversation';
import { useSendMessage } from '../api/send-message';
import { useStopAnswer } from '../api/stop-answer';
import { useAnswerStreams } from '../hooks/use-answer-streams';
import { useCitationRefresh, useDocuments } from '../api/documents';
import { useChatT } from '../i18n';
import { AnswerAnnouncer } from './answer-announcer';
import { BudgetLeft } from './budget-left';
import { Composer } from './composer';
import { DocumentsBar } from './documents-bar';
import { ConversationList } from './conversation-list';
import { MessageList } from './message-list';
import './chat.css';

const SIDER_WIDTH = 260;

/** The room's cover, introduction, intro media and suggested prompts: the start of a chat. */
function RoomIntro({ room, onPrompt }: { room: RoomRecord; onPrompt?: (text: string) => void }) {
  const t = useChatT();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 720, margin: '8px auto 24px' }}>
      <Flex gap={16} align="center">
        <div style={{ width: 72, flex: 'none', borderRadius: 14, overflow: 'hidden' }}>
          <ImageCover src={room.cover} alt={room.title} />
        </div>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {room.title}
          </Typography.Title>
          {room.model && (
            <Typography.Text type="secondary">
              {t('chat.model', { model: room.model.title })}
            </Typography.Text>
          )}
        </div>
      </Flex>
      {room.description && (
        // Rich text an administrator wrote; the server sanitised it with an allow-list on save.
        <div
          className="atrium-room-description"
          dangerouslySetInnerHTML={{ __html: room.description }}
        />
      )}
      {room.introVideo && (
        <video
          src={assetUrl(room.introVideo)}
          controls
          preload="metadata"
          style={{ width: '100%', borderRadius: 10 }}
        />
      )}
      {room.introAudio && (
        <audio
          src={assetUrl(room.introAudio)}
          controls
          preload="metadata"
          style={{ width: '100%' }}
        />
      )}
      {room.downloads.length > 0 && (
        <section aria-label={t('chat.downloads')}>
          <Typography.Text type="secondary">{t('chat.downloads')}</Typography.Text>
          <ul className="atrium-room-downloads">
            {room.downloads.map((path, i) => (
              <li key={`${i}:${path}`}>
                <a href={assetUrl(path)} download={fileNameOf(path)} rel="noopener noreferrer">
                  <DownloadOutlined aria-hidden />
                  <span>{fileNameOf(path)}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {onPrompt && room.prompts.length > 0 && (
        <div>
          <Typography.Text type="secondary">{t('chat.suggested')}</Typography.Text>
          <div className="atrium-chips" style={{ marginTop: 8 }}>
            {room.prompts.map((p, i) => (
              <Button key={i} shape="round" onClick={() => onPrompt(p.value)} title={p.value}>
                {p.name || p.value}
              </Button>
            ))}
          </div>
        </div>
      )}
    </Flex>
  );
}

/** A chat room (`#/:id`): the member's conversations beside the chat with the room's model. */
export function ChatRoom({ room }: { room: RoomRecord }) {
  const t = useChatT();
  const { token } = theme.useToken();
  const small = useSmallWindow();
  const user = useUserStore((s) => s.user);
  const signedIn = user.id > 0;
  const [search, setSearch] = useSearchParams();
  const [drawer, setDrawer] = useState(false);

  const conversations = useConversations(room.id, signedIn);
  // The conversation in the address (kept across reloads) once it is known to be the member's;
  // otherwise the most recent one.
  // "New chat" opens an empty draft (`?c=new`): the conversation exists once its first message
  // is sent, so clicking it again and again leaves nothing behind.
  const drafting = search.get('c') === 'new';
  const requested = Number(search.get('c')) || undefined;
  // `f` (set by search, which only finds the member's own): the conversation is theirs even
  // when older than the list; a message id there is scrolled to once loaded, then set to 0.
  const found = search.get('f');
  const focusId = Number(found) || undefined;
  const activeId =
    conversations.data && !drafting
      ? found !== null && requested
        ? requested
        : (conversations.data.find((c) => c.id === requested) ?? conversations.data[0])?.id
      : undefined;
  const select = useCallback(
    (id: number | undefined) => {
      setSearch(id ? { c: String(id) } : {}, { replace: true });
      setDrawer(false);
    },
    [setSearch],
  );

  const messagesQuery = useMessages(signedIn ? activeId : undefined);
  const messages = useMemo(() => flattenPages(messagesQuery.data), [messagesQuery.data]);
  const { reconnecting } = useAnswerStreams(activeId, messages);
  const streamingMessage = messages.find((m) => m.role === 'assistant' && m.status === 'streaming');
  // Changes when an answer starts or ends, however the page learnt of it: budgets are read again.
  const lastAnswer = messages.findLast((m) => m.role === 'assistant');
  const answersKey = `${activeId ?? 0}:${lastAnswer?.id ?? 0}:${lastAnswer?.status ?? ''}`;
  const onFocused = useCallback(
    () =>
      setSearch(
        (params) => {
          params.set('f', '0');
          return params;
        },
        { replace: true },
      ),
    [setSearch],
  );
  // A message a search opened is on its branch (the server showed it) but maybe in an older
  // page: pages are loaded until it is there.
  useEffect(() => {
    if (focusId === undefined || !messagesQuery.data) return;
    if (messages.some((m) => m.id === focusId)) return;
    if (!messagesQuery.hasNextPage) onFocused();
    else if (!messagesQuery.isFetchingNextPage) void messagesQuery.fetchNextPage();
  }, [focusId, messages, messagesQuery, onFocused]);
  const documents = useDocuments(signedIn ? activeId : undefined);
  useCitationRefresh(activeId, messages, (documents.data?.length ?? 0) > 0);

  const rename = useRenameConversation(room.id);
  const remove = useDeleteConversation(room.id);
  const send = useSendMessage(room.id);
  const stop = useStopAnswer();
  const regenerate = useRegenerateAnswer();

  // The answers this page started (a send, an edit, a regeneration): the announcer reads them
  // even when they first show already settled.
  const [started, setStarted] = useState<ReadonlySet<number>>(() => new Set());
  const noteStarted = useCallback((id: number) => setStarted((ids) => new Set(ids).add(id)), []);

  const onSend = async (content: string, images: string[]): Promise<boolean> => {
    try {
      // A draft's conversation is created by the server with its first question (0: new), so a
      // refused question leaves none behind.
      const sent = await send.mutateAsync({
        conversationId: activeId ?? 0,
        roomId: room.id,
        content,
        images,
      });
      noteStarted(sent.assistantMessage.id);
      if (activeId === undefined) select(sent.userMessage.conversationId);
      return true;
    } catch {
      return false;
    }
  };
  // The message box holds the focus after a send, a stop (the stop button is replaced) and an
  // edit that was saved (the edited question is replaced by its new version).
  const composerInput = useRef<TextAreaRef>(null);
  const onStop = useCallback(
    (id: number) => {
      stop.mutate(id);
      composerInput.current?.focus();
    },
    [stop],
  );
  // The version a switch or a regeneration has just shown: its ‹ n / m › takes the focus.
  const [versionFocus, setVersionFocus] = useState<number>();
  const onRegenerate = useCallback(
    (id: number) =>
      regenerate.mutate(id, {
        onSuccess: (version) => {
          setVersionFocus(version.id);
          noteStarted(version.id);
        },
      }),
    [regenerate, noteStarted],
  );
  const edit = useEditMessage();
  const showVersion = useShowVersion();
  const onEdit = useCallback(
    async (messageId: number, content: string) => {
      if (activeId === undefined) return false;
      try {
        const sent = await edit.mutateAsync({ conversationId: activeId, messageId, content });
        noteStarted(sent.assistantMessage.id);
        composerInput.current?.focus();
        return true;
      } catch {
        return false;
      }
    },
    [edit, activeId, noteStarted],
  );
  const onShowVersion = useCallback(
    (messageId: number) => {
      if (activeId === undefined) return;
      setVersionFocus(messageId);
      showVersion.mutate({ conversationId: activeId, messageId });
    },
    [showVersion, activeId],
  );

  const noModel = room.model === null;
  const list = (
    <ConversationList
      roomId={room.id}
      conversations={conversations.data}
      loading={conversations.isLoading}
      activeId={activeId}
      onSelect={select}
      onCreate={() => {
        setSearch({ c: 'new' }, { replace: true });
        setDrawer(false);
      }}
      onRename={(id, title) => rename.mutateAsync({ id, title })}
      onDelete={async (id) => {
        await remove.mutateAsync(id);
        if (id === activeId) select(undefined);
      }}
      onOpened={() => setDrawer(false)}
    />
  );

  return (
    <div
      className="atrium-chat"
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {signedIn && !small && (
        <aside
          style={{
            width: SIDER_WIDTH,
            flex: 'none',
            borderRight: `1px solid ${token.colorBorderSecondary}`,
            background: token.colorFillQuaternary,
          }}
        >
          {list}
        </aside>
      )}
      {signedIn && small && (
        <Drawer
          open={drawer}
          onClose={() => setDrawer(false)}
          placement="left"
          size={SIDER_WIDTH + 20}
          title={t('chat.conversations')}
          styles={{ body: { padding: 0 } }}
        >
          {list}
        </Drawer>
      )}
      <section className="atrium-chat-main" aria-label={room.title}>
        <Flex
          align="center"
          gap={8}
          style={{ padding: '10px 14px', borderBottom: `1px solid ${token.colorBorderSecondary}` }}
        >
          <Link to="/" aria-label={t('chat.back')}>
            <Button type="text" icon={<ArrowLeftOutlined />}>
              {small ? null : t('chat.back')}
            </Button>
          </Link>
          {signedIn && small && (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('chat.conversations')}
              onClick={() => setDrawer(true)}
            />
          )}
          <Typography.Title level={5} style={{ margin: 0, flex: 1, minWidth: 0 }} ellipsis>
            {room.title}
          </Typography.Title>
          {room.model && (
            <Tag
              color="blue"
              variant="filled"
              icon={<RobotOutlined />}
              style={{ marginInlineEnd: 0 }}
            >
              {room.model.title}
            </Tag>
          )}
          {room.model?.vision && !small && (
            <Tag
              color="purple"
              variant="filled"
              icon={<EyeOutlined />}
              style={{ marginInlineEnd: 0 }}
            >
              {t('chat.vision')}
            </Tag>
          )}
        </Flex>
        {noModel && <Alert type="warning" showIcon banner title={t('chat.noModel')} />}
        {reconnecting && <Alert type="info" showIcon banner title={t('chat.reconnecting')} />}
        {signedIn ? (
          <>
            <MessageList
              messages={messages}
              hasOlder={messagesQuery.hasNextPage}
              loadingOlder={messagesQuery.isFetchingNextPage}
              onLoadOlder={() => void messagesQuery.fetchNextPage()}
              focusId={focusId}
              onFocused={onFocused}
              header={
                <RoomIntro
                  room={room}
                  onPrompt={
                    messages.length === 0 && !noModel ? (text) => void onSend(text, []) : undefined
                  }
                />
              }
              busy={
                streamingMessage !== undefined ||
                regenerate.isPending ||
                edit.isPending ||
                showVersion.isPending
              }
              onStop={onStop}
              onRegenerate={onRegenerate}
              onEdit={onEdit}
              onShowVersion={onShowVersion}
              versionFocusId={versionFocus}
            />
            <AnswerAnnouncer messages={messages} started={started} />
            <Composer
              inputRef={composerInput}
              disabled={noModel}
              streaming={streamingMessage !== undefined}
              sending={send.isPending}
              vision={room.model?.vision === true}
              onSend={onSend}
              onStop={() => streamingMessage && onStop(streamingMessage.id)}
              above={
                <DocumentsBar
                  roomId={room.id}
                  conversationId={activeId}
                  documents={documents.data ?? []}
                  loading={documents.data === undefined}
                  disabled={noModel}
                  onCreated={select}
                />
              }
              below={(draft) => (
                <BudgetLeft
                  roomId={room.id}
                  conversationId={activeId}
                  question={draft.text}
                  images={draft.images}
                  answers={answersKey}
                />
              )}
            />
          </>
        ) : (
          <div className="atrium-chat-scroll">
            <RoomIntro room={room} />
            <Flex vertical align="center" gap={12} style={{ margin: '12px 0 32px' }}>
              <Typography.Text type="secondary">{t('chat.loginToChat')}</Typography.Text>
              <Link to={loginLocation(`/${room.id}`)}>
                <Button type="primary" size="large">
                  {t('chat.login')}
                </Button>
              </Link>
            </Flex>
          </div>
        )}
      </section>
    </div>
  );
}
