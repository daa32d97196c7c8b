import type { MessageRecord } from '@atrium/shared/contract/chat';
import { storedText } from '@/lib/messages';
import type { ChatKey } from '../i18n';

/**
 * Markdown as it is read aloud: the words without the marks (no "##", "**", backticks, link
 * addresses or fence lines), on one line.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^\s*(```|~~~).*$/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*([-*_]\s*){3,}$/gm, '')
    .replace(/(\*\*|__|~~|\*|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What a settled answer says to a screen reader: its text, and how it ended when not done. */
export function spokenAnswer(message: MessageRecord, t: (key: ChatKey) => string): string {
  const text = plainText(message.content);
  if (message.status === 'stopped') return [text, t('chat.stopped')].filter(Boolean).join(' ');
  if (message.status === 'error' || message.status === 'interrupted') {
    const why = storedText(message.error, message.errorKey, message.errorParams);
    const state = message.status === 'error' ? t('chat.failed') : t('chat.interrupted');
    return [text, state, why].filter(Boolean).join(' ');
  }
  return text;
}
