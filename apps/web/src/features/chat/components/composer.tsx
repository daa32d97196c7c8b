import { useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Button, Image, Input, Tooltip, theme } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { CloseCircleFilled, PauseOutlined, PictureOutlined, SendOutlined } from '@ant-design/icons';
import { maxImagesPerMessage, maxMessageLength } from '@atrium/shared/contract/chat-limits';
import { FilePicker } from '@/components/file-library/file-picker/file-picker';
import type { PickedFile } from '@/components/file-library/file-picker/selection';
import { useSmallWindow } from '@/lib/use-media-query';
import { assetUrl } from '@/lib/urls';
import { useChatT } from '../i18n';

export interface ComposerProps {
  disabled: boolean;
  /** An answer is being written: the send button becomes stop. */
  streaming: boolean;
  sending: boolean;
  /** The room's model sees images: offer attachments from the file library. */
  vision: boolean;
  onSend: (content: string, images: string[]) => Promise<boolean>;
  onStop: () => void;
  /** Shown above the message box (the conversation's documents). */
  above?: ReactNode;
  /** Shown under the message box, given the draft (what the budgets leave for it). */
  below?: (draft: { text: string; images: number }) => ReactNode;
  /** The message box, for the room to give the focus back to it (after a stop or an edit). */
  inputRef?: RefObject<TextAreaRef | null>;
}

/** The message box: Enter sends (not while an IME is composing), Shift+Enter adds a line. */
export function Composer({
  disabled,
  streaming,
  sending,
  vision,
  onSend,
  onStop,
  above,
  below,
  inputRef,
}: ComposerProps) {
  const t = useChatT();
  const { token } = theme.useToken();
  const small = useSmallWindow();
  const [text, setText] = useState('');
  const [images, setImages] = useState<PickedFile[]>([]);
  const [picking, setPicking] = useState(false);
  const composing = useRef(false);
  const ownInput = useRef<TextAreaRef>(null);
  const input = inputRef ?? ownInput;
  // Send becomes stop and back: the button that took the key is replaced, so the focus stays
  // in (or comes back to) the message box.
  const refocus = () => input.current?.focus();

  const canSend = !disabled && !streaming && !sending && text.trim() !== '';
  const submit = async () => {
    if (!canSend) return;
    refocus();
    const sent = await onSend(
      text.trim(),
      images.map((i) => i.path),
    );
    if (sent) {
      setText('');
      setImages([]);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !composing.current && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <>
      <div
        className="atrium-composer"
        style={{ borderTop: `1px solid ${token.colorBorderSecondary}` }}
      >
        {above}
        <div className="atrium-composer-box" style={{ background: token.colorBgContainer }}>
          {images.length > 0 && (
            <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', padding: '4px 0 8px' }}>
              {images.map((image) => (
                <div key={image.path} style={{ position: 'relative' }}>
                  <Image
                    src={assetUrl(image.fullPath || image.path)}
                    width={56}
                    height={56}
                    style={{ objectFit: 'cover', borderRadius: 6 }}
                    alt=""
                  />
                  <Button
                    size="small"
                    type="text"
                    aria-label={t('chat.removeImage')}
                    icon={<CloseCircleFilled />}
                    style={{ position: 'absolute', top: -8, right: -8 }}
                    onClick={() => setImages((list) => list.filter((i) => i.path !== image.path))}
                  />
                </div>
              ))}
            </div>
          )}
          <div style={{ display: 'flex', alignItems: 'flex-end', gap: 6 }}>
            <Input.TextArea
              ref={input}
              variant="borderless"
              value={text}
              disabled={disabled}
              maxLength={maxMessageLength}
              autoSize={{ minRows: 1, maxRows: 8 }}
              placeholder={small ? t('chat.placeholderSmall') : t('chat.placeholder')}
              aria-label={t('chat.placeholderSmall')}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onKeyDown}
              onCompositionStart={() => (composing.current = true)}
              onCompositionEnd={() => (composing.current = false)}
              style={{ padding: '4px 0', flex: 1 }}
            />
            {vision && (
              <Tooltip title={t('chat.attachHint', { max: maxImagesPerMessage })}>
                <Button
                  type="text"
                  aria-label={t('chat.attach')}
                  icon={<PictureOutlined />}
                  disabled={disabled || images.length >= maxImagesPerMessage}
                  onClick={() => setPicking(true)}
                />
              </Tooltip>
            )}
            {streaming ? (
              <Button
                type="primary"
                danger
                icon={<PauseOutlined />}
                aria-label={t('chat.stop')}
                onClick={() => {
                  onStop();
                  refocus();
                }}
              >
                {small ? null : t('chat.stop')}
              </Button>
            ) : (
              <Button
                type="primary"
                icon={<SendOutlined />}
                loading={sending}
                disabled={!canSend}
                aria-label={t('chat.send')}
                onClick={() => void submit()}
              >
                {small ? null : t('chat.send')}
              </Button>
            )}
          </div>
        </div>
        {vision && (
          <FilePicker
            category="image"
            libraryOnly
            open={picking}
            max={maxImagesPerMessage - images.length}
            onClose={() => setPicking(false)}
            onConfirm={(picked) => {
              setImages((list) => {
                const known = new Set(list.map((i) => i.path));
                return [...list, ...picked.filter((p) => !known.has(p.path))].slice(
                  0,
                  maxImagesPerMessage,
                );
              });
              setPicking(false);
            }}
          />
        )}
      </div>
      {below?.({ text, images: images.length })}
    </>
  );
}
