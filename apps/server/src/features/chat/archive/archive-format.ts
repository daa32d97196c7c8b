import {
  chatExportFormat,
  chatExportVersion,
  type ExportedConversation,
  type ExportedMessage,
} from '@atrium/shared/contract/chat-export';
import { branchPath, versionsByMessage } from '../conversations/index';
import { errorText, titleIn } from '../chat-texts';
import type { ExportConversationRow, ExportMessageRow } from './archive.repository';
import { parseImages } from '../chat.tables';

/** How the export files are written: pure functions of the rows (issue 18, point 4). */

export type ExportLanguage = 'zh-CN' | 'en';

const labels = {
  en: {
    room: 'Room',
    created: 'Created',
    updated: 'Last active',
    exported: 'Exported',
    messages: 'Messages',
    you: 'You',
    assistant: 'Assistant',
    image: 'image',
    stopped: '(stopped before the end)',
    error: '(the answer failed)',
    interrupted: '(interrupted)',
    streaming: '(still being written when exported)',
    version: (n: number, of: number) =>
      `Version ${n} of ${of} of this question; the JSON export holds the others and their answers.`,
    answerVersion: (n: number, of: number) =>
      `Version ${n} of ${of} of this answer; the JSON export holds the others.`,
    shownBranch: 'the shown branch',
    roomGone: '(room deleted)',
    allTitle: 'My conversations',
    noConversations: 'No conversations.',
  },
  'zh-CN': {
    room: '聊天室',
    created: '创建于',
    updated: '最近活动',
    exported: '导出于',
    messages: '消息数',
    you: '我',
    assistant: '助手',
    image: '图片',
    stopped: '（回答已停止）',
    error: '（回答失败）',
    interrupted: '（回答被中断）',
    streaming: '（导出时仍在生成）',
    version: (n: number, of: number) =>
      `此问题的第 ${n} 个版本（共 ${of} 个）；其他版本及其回答见 JSON 导出。`,
    answerVersion: (n: number, of: number) =>
      `此回答的第 ${n} 个版本（共 ${of} 个）；其他版本见 JSON 导出。`,
    shownBranch: '当前显示的分支',
    roomGone: '（聊天室已删除）',
    allTitle: '我的对话',
    noConversations: '没有对话。',
  },
} as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-21 17:00 (UTC+08:00)": the time at `utcOffset` minutes east of UTC. */
export function formatTime(at: number, utcOffset: number): string {
  const d = new Date(at + utcOffset * 60_000);
  const sign = utcOffset < 0 ? '-' : '+';
  const abs = Math.abs(utcOffset);
  const zone = `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(
    d.getUTCHours(),
  )}:${pad(d.getUTCMinutes())} (${zone})`;
}

/** A title on one line, with the characters that would start Markdown syntax made literal. */
function inlineText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/([\\`*_[\]<>#|])/g, '\\$1');
}

/** An image as a Markdown link: library paths made absolute with the site's address. */
function imageLink(path: string, origin: string, label: string): string {
  const url = path.startsWith('/') ? `${origin}${path}` : path;
  return `![${label}](<${url.replace(/[<>]/g, encodeURIComponent)}>)`;
}

export interface MarkdownOptions {
  lang: ExportLanguage;
  utcOffset: number;
  /** The site's address, for image links. */
  origin: string;
}

/**
 * One conversation in Markdown: title, room and dates, then each message of the shown branch
 * with its role and time. A question or an answer in several versions says which one is shown.
 */
export function conversationMarkdown(
  conversation: ExportConversationRow,
  messages: readonly ExportMessageRow[],
  options: MarkdownOptions,
  headingLevel: 1 | 2 = 1,
): string {
  const l = labels[options.lang];
  const when = (at: number) => formatTime(at, options.utcOffset);
  const byId = new Map(messages.map((m) => [m.id, m]));
  const path = branchPath(messages, conversation.leafId);
  const versions = versionsByMessage(messages);
  const h = '#'.repeat(headingLevel);
  const lines: string[] = [
    `${h} ${inlineText(titleIn(conversation.title, options.lang))}`,
    '',
    `- ${l.room}: ${conversation.roomTitle === null ? l.roomGone : inlineText(conversation.roomTitle)}`,
    `- ${l.created}: ${when(conversation.createdAt)}`,
    `- ${l.updated}: ${when(conversation.updatedAt)}`,
    `- ${l.messages}: ${path.length} (${l.shownBranch})`,
    '',
  ];
  for (const id of path) {
    const message = byId.get(id);
    if (!message) continue;
    const who = message.role === 'user' ? l.you : l.assistant;
    lines.push(`${h}## ${who} · ${when(message.createdAt)}`, '');
    const of = versions.get(id);
    if (of) {
      const note = message.role === 'user' ? l.version : l.answerVersion;
      lines.push(`> ${note(of.indexOf(id) + 1, of.length)}`, '');
    }
    if (message.content.trim() !== '') lines.push(message.content.trimEnd(), '');
    const images = parseImages(message.images);
    if (images.length > 0) {
      lines.push(images.map((p) => imageLink(p, options.origin, l.image)).join('\n'), '');
    }
    if (message.status !== 'done') {
      const note = l[message.status];
      const error = errorText(message.error, options.lang);
      lines.push(error ? `_${note} ${inlineText(error)}_` : `_${note}_`, '');
    }
  }
  return lines.join('\n');
}

/** The head of the one Markdown file holding every conversation. */
export function allMarkdownHead(lang: ExportLanguage, exportedAt: number, utcOffset: number) {
  const l = labels[lang];
  return `# ${l.allTitle}\n\n- ${l.exported}: ${formatTime(exportedAt, utcOffset)}\n\n`;
}

export function noConversationsMarkdown(lang: ExportLanguage): string {
  return `${labels[lang].noConversations}\n`;
}

/**
 * One conversation in the JSON export's shape (version 1): every message of every branch. The
 * default title and the answers' errors are written in `lang`, as a reader of the file reads
 * them; an import stores them as messages again (archive-import.ts).
 */
export function conversationJson(
  conversation: ExportConversationRow,
  messages: readonly ExportMessageRow[],
  lang: ExportLanguage,
): ExportedConversation {
  return {
    id: conversation.id,
    title: titleIn(conversation.title, lang),
    room: { id: conversation.roomId, title: conversation.roomTitle ?? '' },
    leafId: conversation.leafId,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    messages: messages.map((m): ExportedMessage => ({
      id: m.id,
      parentId: m.parentId,
      role: m.role,
      content: m.content,
      images: parseImages(m.images),
      status: m.status,
      error: errorText(m.error, lang),
      promptTokens: m.promptTokens,
      completionTokens: m.completionTokens,
      tokensEstimated: m.tokensEstimated === 1,
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
    })),
  };
}

/** The JSON file's opening, up to the conversations list; `jsonTail` closes it. */
export function jsonHead(exportedAt: number): string {
  return `{"format":${JSON.stringify(chatExportFormat)},"version":${chatExportVersion},"exportedAt":${exportedAt},"conversations":[\n`;
}
export const jsonTail = '\n]}\n';

/** A file name from a title: no path or reserved characters, at most 80 characters. */
export function fileNameOf(title: string, fallback: string): string {
  const cleaned = title
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const cut = [...cleaned].slice(0, 80).join('').trim();
  return cut || fallback;
}

/** `attachment` with an ASCII name for old clients and the UTF-8 name (RFC 6266, 5987). */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )}`;
}
