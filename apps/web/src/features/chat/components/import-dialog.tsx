import { useRef, useState } from 'react';
import { Alert, Button, Flex, Modal, Radio, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { chatImportMaxChars } from '@atrium/shared/contract/chat-export-limits';
import type { ChatImportResponse } from '@atrium/shared/contract/chat-export';
import { ApiError } from '@/lib/api';
import { asyncHandler } from '@/lib/async-handler';
import { useImportConversations } from '../api/import-conversations';
import { useChatShareT } from '../share-i18n';

const maxMb = chatImportMaxChars / 1024 / 1024;

/** Imports an export file (one conversation or all), into their rooms or this one. */
export function ImportDialog({
  open,
  roomId,
  onClose,
}: {
  open: boolean;
  roomId: number;
  onClose: () => void;
}) {
  const t = useChatShareT();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [where, setWhere] = useState<'original' | 'this'>('original');
  const [error, setError] = useState('');
  const [result, setResult] = useState<ChatImportResponse>();
  const importing = useImportConversations();

  const close = () => {
    setFile(undefined);
    setError('');
    setResult(undefined);
    setWhere('original');
    onClose();
  };

  const start = async () => {
    if (!file) return;
    setError('');
    if (file.size > chatImportMaxChars * 4) {
      setError(t('chatShare.tooBig', { max: maxMb }));
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch {
      setError(t('chatShare.readFailed'));
      return;
    }
    if (text.length > chatImportMaxChars) {
      setError(t('chatShare.tooBig', { max: maxMb }));
      return;
    }
    try {
      const done = await importing.mutateAsync({
        file: text,
        ...(where === 'this' ? { roomId } : {}),
      });
      setResult(done);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      // Already in the page's language (read from the refusal's key); acted on by its key.
      setError(t('chatShare.importFailed', { error: failure.message }));
      const key = (failure.result.data as { error?: unknown } | null)?.error;
      if (key === 'chat.importRoomsMissing') setWhere('this');
    }
  };

  return (
    <Modal
      open={open}
      title={t('chatShare.importTitle')}
      onCancel={close}
      destroyOnHidden
      footer={
        result ? (
          <Button type="primary" onClick={close}>
            {t('chatShare.close')}
          </Button>
        ) : (
          <Button
            type="primary"
            disabled={!file}
            loading={importing.isPending}
            onClick={asyncHandler(start)}
          >
            {t('chatShare.importOk')}
          </Button>
        )
      }
    >
      {result ? (
        <Flex vertical gap={12}>
          <Alert
            type="success"
            showIcon
            title={t('chatShare.imported', {
              count: result.conversations.length,
              messages: result.messages,
            })}
          />
          {result.droppedImages.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title={t('chatShare.droppedImages', { count: result.droppedImages.length })}
            />
          )}
        </Flex>
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('chatShare.importHint', { max: maxMb })}
          </Typography.Paragraph>
          <input
            ref={input}
            type="file"
            accept=".json,application/json"
            hidden
            data-testid="chat-import-file"
            onChange={(e) => {
              setFile(e.target.files?.[0]);
              setError('');
              e.target.value = '';
            }}
          />
          <Flex gap={8} align="center" wrap="wrap">
            <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
              {t('chatShare.chooseFile')}
            </Button>
            {file && (
              <Typography.Text ellipsis style={{ minWidth: 0, maxWidth: '100%' }}>
                {t('chatShare.chosenFile', {
                  name: file.name,
                  size: `${Math.max(1, Math.round(file.size / 1024))} KB`,
                })}
              </Typography.Text>
            )}
          </Flex>
          <div>
            <Typography.Text strong>{t('chatShare.roomChoice')}</Typography.Text>
            <Radio.Group
              value={where}
              onChange={(e) => setWhere(e.target.value as 'original' | 'this')}
              style={{ display: 'flex', flexDirection: 'column', gap: 4, marginTop: 6 }}
              options={[
                { value: 'original', label: t('chatShare.roomOriginal') },
                { value: 'this', label: t('chatShare.roomThis') },
              ]}
            />
          </div>
          {error && <Alert type="error" showIcon title={error} role="alert" />}
        </Flex>
      )}
    </Modal>
  );
}
