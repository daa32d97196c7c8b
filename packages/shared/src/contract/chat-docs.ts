import { z } from 'zod';
import { defineCalls } from './call';
import { recordId, recordIdOrZero, textField } from './fields';
import {
  citationRecord,
  documentListResponse,
  documentRecord,
  documentStatuses,
  type DocumentStatus,
} from './chat-docs.answers';

/**
 * Library documents as chat context (issue 18): a member attaches PDF, TXT, MD, DOCX and CSV
 * files of their own library to a conversation; their text is extracted once per stored file,
 * split into passages and indexed, and each answer is given the most relevant passages, which it
 * cites as [1], [2].
 */

/** The file types whose text is read. */
export const documentExtensions = ['pdf', 'txt', 'md', 'docx', 'csv'] as const;
export type DocumentExtension = (typeof documentExtensions)[number];

/** Documents one conversation may hold. */
export const maxDocumentsPerConversation = 20;

/** Whether a file name or path ends with a type whose text is read. */
export function isDocumentName(name: string): boolean {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext !== undefined && (documentExtensions as readonly string[]).includes(ext);
}

const documentPath = textField().trim().min(1).max(1000);

export const documentListRequest = z.strictObject({ conversationId: recordId });

export const documentAttachRequest = z.strictObject({
  /** 0: a new conversation in `roomId`, created with these documents (not when refused). */
  conversationId: recordIdOrZero,
  roomId: recordIdOrZero.default(0),
  /** Paths of files in the member's own library. */
  paths: z.array(documentPath).min(1).max(maxDocumentsPerConversation),
});
export type DocumentAttachRequest = z.input<typeof documentAttachRequest>;

export const documentDetachRequest = z.strictObject({ conversationId: recordId, id: recordId });

export { citationRecord, documentListResponse, documentRecord, documentStatuses };
export type { DocumentStatus };
export type DocumentRecord = z.infer<typeof documentRecord>;
export type CitationRecord = z.infer<typeof citationRecord>;
export type DocumentListResponse = z.infer<typeof documentListResponse>;

export const chatDocsCalls = defineCalls('member', {
  /** The conversation's documents with the state of reading each. */
  'aigc/document/list': { request: documentListRequest, answer: documentListResponse },
  /** Attaches files of the member's own library; answers the conversation's documents. */
  'aigc/document/attach': { request: documentAttachRequest, answer: documentListResponse },
  /** Removes one document from the conversation (the file stays in the library). */
  'aigc/document/detach': { request: documentDetachRequest, answer: documentListResponse },
});
