import { z } from 'zod';
import { defineCalls } from './call';
import { emptyRequest } from './auth';
import {
  chatImportResponse,
  chatShareRecord,
  chatShareList,
  chatShareView,
} from './chat-export.answers';
import { messageStatuses } from './chat.answers';
import {
  chatExportFormat,
  chatExportVersion,
  chatImportMaxChars,
  chatImportMaxConversations,
  chatImportMaxMessages,
  chatImportMaxTotalMessages,
  chatSharesMax,
} from './chat-export-limits';
import { bigIntField, intField, recordId, textField } from './fields';

export {
  chatExportFormat,
  chatExportVersion,
  chatImportMaxChars,
  chatImportMaxConversations,
  chatImportMaxMessages,
  chatImportMaxTotalMessages,
  chatSharesMax,
};

/**
 * Export and import of a member's conversations, and read-only share links (issue 18, points 4
 * and 5). Export answers a file (Markdown or the JSON below), not an envelope, unless refused.
 */

const epoch = bigIntField(0);
const count = intField(0, 2_000_000_000);
/** Ids inside an export file: only links between its own records; never stored as they are. */
const fileId = intField(1, 2_000_000_000, {
  min: 'validation.invalid',
  max: 'validation.invalid',
});

// ---------------------------------------------------------------------------------------------
// The JSON export file (version 1). It holds every message of every branch; `leafId` names the
// message the shown branch ends at (null: the newest), `parentId` the message each one follows.

export const exportedMessage = z.strictObject({
  id: fileId,
  parentId: fileId.nullable(),
  role: z.enum(['user', 'assistant']),
  content: textField().max(1_000_000),
  images: z.array(textField().max(1000)).max(20),
  status: z.enum(messageStatuses),
  error: textField().max(10_000).default(''),
  promptTokens: count.default(0),
  completionTokens: count.default(0),
  tokensEstimated: z.boolean().default(false),
  createdAt: epoch,
  updatedAt: epoch,
});
export type ExportedMessage = z.infer<typeof exportedMessage>;

export const exportedConversation = z
  .strictObject({
    id: fileId,
    title: textField().trim().min(1).max(100),
    room: z.strictObject({ id: recordId, title: textField().max(1000) }),
    leafId: fileId.nullable(),
    createdAt: epoch,
    updatedAt: epoch,
    messages: z.array(exportedMessage).max(chatImportMaxMessages),
  })
  .superRefine((conversation, ctx) => {
    // A tree: ids unique, and each message follows one listed before it (so no cycles).
    const seen = new Set<number>();
    conversation.messages.forEach((message, index) => {
      if (seen.has(message.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', index, 'id'],
          message: 'chat.exportIdTwice',
        });
      }
      if (message.parentId !== null && !seen.has(message.parentId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', index, 'parentId'],
          message: 'chat.exportParentMissing',
        });
      }
      seen.add(message.id);
    });
    if (conversation.leafId !== null && !seen.has(conversation.leafId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['leafId'],
        message: 'chat.exportLeafMissing',
      });
    }
  });
export type ExportedConversation = z.infer<typeof exportedConversation>;

export const chatExportFile = z.strictObject({
  format: z.literal(chatExportFormat),
  version: z.literal(chatExportVersion, 'chat.exportVersionOther'),
  exportedAt: epoch,
  conversations: z
    .array(exportedConversation)
    .min(1, 'chat.importNoConversation')
    .max(chatImportMaxConversations),
});
export type ChatExportFile = z.infer<typeof chatExportFile>;

// ---------------------------------------------------------------------------------------------
// Calls

export const chatExportKinds = ['markdown', 'json'] as const;
export type ChatExportKind = (typeof chatExportKinds)[number];
export const chatExportLanguages = ['zh-CN', 'en'] as const;

export const chatExportRequest = z.strictObject({
  /** One conversation; omitted: every conversation of the member, in every room. */
  conversationId: recordId.optional(),
  format: z.enum(chatExportKinds),
  /** Labels of the Markdown file ("You", "Room"…); the JSON file has none. */
  lang: z.enum(chatExportLanguages).default('zh-CN'),
  /** Minutes east of UTC the Markdown's times are written in (the browser's offset). */
  utcOffset: intField(-14 * 60, 14 * 60).default(0),
});
export type ChatExportRequest = z.input<typeof chatExportRequest>;

export const chatImportRequest = z.strictObject({
  /** The export file's text, parsed and checked on the server. */
  file: textField().min(1, 'chat.importEmpty').max(chatImportMaxChars, 'chat.importTooBig'),
  /** Every conversation goes into this room; omitted: each into the room it was exported from. */
  roomId: recordId.optional(),
});
export type ChatImportRequest = z.input<typeof chatImportRequest>;

export const chatShareCreateRequest = z.strictObject({
  conversationId: recordId,
  /** Anyone with the link may view it without signing in; only when the site allows it. */
  public: z.boolean().default(false),
});
export type ChatShareCreateRequest = z.input<typeof chatShareCreateRequest>;

/** A share link's token (43 base64url characters, 256 random bits); any other is not found. */
export const shareToken = textField().trim().min(1).max(200);

export const chatShareViewRequest = z.strictObject({ token: shareToken });
export const chatShareRevokeRequest = z.strictObject({ id: recordId });

export const chatShareSettings = z.strictObject({
  /** Members may make links anyone can open without signing in. */
  publicLinks: z.boolean(),
});
export type ChatShareSettings = z.infer<typeof chatShareSettings>;

export type ChatShareRecord = z.infer<typeof chatShareRecord>;
export type ChatShareView = z.infer<typeof chatShareView>;
export type ChatShareList = z.infer<typeof chatShareList>;
export type ChatImportResponse = z.infer<typeof chatImportResponse>;

export const chatExportCalls = defineCalls('member', {
  /**
   * A file (`Content-Disposition: attachment`) in Markdown or JSON; a refusal is the envelope.
   */
  'aigc/conversation/export': { request: chatExportRequest, answer: z.null() },
  /** All or nothing: one transaction. */
  'aigc/conversation/import': { request: chatImportRequest, answer: chatImportResponse },
  'aigc/share/create': { request: chatShareCreateRequest, answer: chatShareRecord },
  /** The member's share links, newest first, and whether public links are allowed. */
  'aigc/share/list': { request: emptyRequest, answer: chatShareList },
  'aigc/share/revoke': { request: chatShareRevokeRequest, answer: z.null() },
  /**
   * A shared snapshot. Public: an anonymous visitor is answered "not logged in" (1000) unless the
   * link is public and the site allows public links; an unknown or revoked link is "not found".
   */
  'aigc/share/view': { public: true, request: chatShareViewRequest, answer: chatShareView },
});

export const chatShareSettingsRule = 'system/setting';

export const chatShareAdminCalls = defineCalls('admin', {
  'aigc/share/setting': {
    rule: chatShareSettingsRule,
    request: emptyRequest,
    answer: chatShareSettings,
  },
  'aigc/share/setting_save': {
    rule: chatShareSettingsRule,
    request: chatShareSettings,
    answer: chatShareSettings,
  },
});
