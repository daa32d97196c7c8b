import { useEffect, useRef } from 'react';
import { Button } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { useChatT } from '../i18n';

export interface MessageVersionsProps {
  message: MessageRecord;
  busy: boolean;
  onShowVersion: (id: number) => void;
  /** Takes the focus when shown: the version a switch from this control has just shown. */
  autoFocus?: boolean;
}

/**
 * "‹ 2 / 3 ›": which version of an edited question or a regenerated answer is shown, and the way
 * to the others. A switch shows another message (another id), so the control that took the
 * click is replaced: the new one takes the focus, and its "2 / 3" is read out.
 */
export function MessageVersions({
  message,
  busy,
  onShowVersion,
  autoFocus = false,
}: MessageVersionsProps) {
  const t = useChatT();
  const position = useRef<HTMLSpanElement>(null);
  const versions = message.versions ?? [];
  const at = versions.indexOf(message.id);
  const shown = versions.length > 1 && at >= 0;
  useEffect(() => {
    if (shown && autoFocus) position.current?.focus();
  }, [shown, autoFocus]);
  if (!shown) return null;
  const go = (index: number) => {
    const id = versions[index];
    if (id !== undefined) onShowVersion(id);
  };
  return (
    <span
      className="atrium-msg-versions"
      role="group"
      aria-label={t(message.role === 'user' ? 'chat.versions' : 'chat.answerVersions')}
    >
      <Button
        size="small"
        type="text"
        icon={<LeftOutlined />}
        aria-label={t('chat.previousVersion')}
        disabled={busy || at === 0}
        onClick={() => go(at - 1)}
      />
      <span ref={position} tabIndex={-1} aria-live="polite" className="atrium-msg-version-at">
        {t('chat.versionOf', { n: at + 1, total: versions.length })}
      </span>
      <Button
        size="small"
        type="text"
        icon={<RightOutlined />}
        aria-label={t('chat.nextVersion')}
        disabled={busy || at === versions.length - 1}
        onClick={() => go(at + 1)}
      />
    </span>
  );
}
