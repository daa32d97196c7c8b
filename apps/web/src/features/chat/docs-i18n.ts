import { useTranslation } from 'react-i18next';
import { i18n, type MessageVars } from '@/lib/i18n';
import { chatDocsEn } from './locales/docs-en';
import { chatDocsZhCN, type ChatDocsKey } from './locales/docs-zh-cn';

export type { ChatDocsKey } from './locales/docs-zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', chatDocsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', chatDocsEn, true, false);

/** Typed translation hook for documents as chat context; re-renders on a language change. */
export function useChatDocsT(): (key: ChatDocsKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}

/** Why a document cannot be read, in the member's language (the server says it in English). */
export function unreadableReason(error: string): ChatDocsKey {
  const reasons: [RegExp, ChatDocsKey][] = [
    [/protected by a password/, 'chatDocs.reason.password'],
    [/not a valid PDF/, 'chatDocs.reason.pdf'],
    [/not a valid Word document/, 'chatDocs.reason.word'],
    [/not a text file|neither UTF-8/, 'chatDocs.reason.text'],
    [/scanned PDF/, 'chatDocs.reason.scanned'],
    [/holds no text/, 'chatDocs.reason.empty'],
    [/too large when unpacked/, 'chatDocs.reason.unpacked'],
    [/characters of text/, 'chatDocs.reason.tooMuchText'],
    [/more than \d+ pages/, 'chatDocs.reason.pages'],
    [/stopped \d+ times/, 'chatDocs.reason.stopped'],
    [/larger than|too large/, 'chatDocs.reason.large'],
    [/took longer/, 'chatDocs.reason.slow'],
    [/no longer stored/, 'chatDocs.reason.gone'],
  ];
  return reasons.find(([pattern]) => pattern.test(error))?.[1] ?? 'chatDocs.reason.other';
}
