import type { DocumentStatus } from '@atrium/shared/contract/chat-docs';
import type { Generated, Selectable } from 'kysely';
import type { Db } from '../../db/index';
import { filesDb } from '../library/index';

/** Table shapes of documents as chat context (migration 2026_11_30_1000_chat_documents). */

export interface ChatDocumentsTable {
  id: Generated<number>;
  conversationId: number;
  memberId: number;
  path: string;
  name: string;
  ext: string;
  createdAt: number;
}

export interface ChatDocExtractsTable {
  blobId: number;
  ext: string;
  status: DocumentStatus;
  progress: Generated<number>;
  pages: Generated<number>;
  passages: Generated<number>;
  error: Generated<string>;
  /** While running: the instance reading it, for as long as its heartbeat is fresh. */
  instanceId: string | null;
  /** The embedding model its passages' vectors come from; '' without vectors. */
  embeddingModel: Generated<string>;
  /** Times an instance took the job (migration 2026_12_01_1000_chat_bounds). */
  attempts: Generated<number>;
  createdAt: number;
  updatedAt: number;
}

export interface ChatDocPassagesTable {
  id: Generated<number>;
  blobId: number;
  seq: number;
  page: number;
  text: string;
  vector: string | null;
}

export interface ChatCitationsTable {
  id: Generated<number>;
  messageId: number;
  n: number;
  name: string;
  path: string;
  page: number;
  text: string;
}

/** Other features' tables, read by id (conversations to check ownership and name the holder). */
type ReadTables = {
  chatConversations: {
    id: Generated<number>;
    memberId: number;
    roomId: number;
    title: string;
    createdAt: number;
    updatedAt: number;
  };
};

type DocsTables = {
  chatDocuments: ChatDocumentsTable;
  chatDocExtracts: ChatDocExtractsTable;
  chatDocPassages: ChatDocPassagesTable;
  chatCitations: ChatCitationsTable;
} & ReadTables;

/** The shared handle seen with these tables and the file library's (blobs, files, references). */
export function docsDb(db: Db) {
  return filesDb(db).withTables<DocsTables>();
}
export type DocsDb = ReturnType<typeof docsDb>;

export type DocumentRow = Selectable<ChatDocumentsTable>;
export type ExtractRow = Selectable<ChatDocExtractsTable>;
