import { z } from 'zod';
import { epochMs, id } from './paging.answers';

/** What the document calls answer (chat-docs.ts), and the citations of an answer. */

export const documentStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type DocumentStatus = (typeof documentStatuses)[number];

export const documentRecord = z.strictObject({
  id,
  conversationId: id,
  /** The file's path in the member's library (`/data/file/...`). */
  path: z.string(),
  name: z.string(),
  ext: z.string(),
  /** Reading its text: waiting, being read, ready, or unreadable (then `error` says why). */
  status: z.enum(documentStatuses),
  /** 0–100 while it is read. */
  progress: z.number().int().min(0).max(100),
  /** Pages read (PDF), 0 for formats without pages. */
  pages: z.number().int().nonnegative(),
  /** Passages it was split into, once ready. */
  passages: z.number().int().nonnegative(),
  error: z.string(),
  createdAt: epochMs,
});

/** A passage an answer cites as `[n]`: its text, and the file and page it comes from. */
export const citationRecord = z.strictObject({
  n: z.number().int().positive(),
  name: z.string(),
  path: z.string(),
  /** 0 when the format has no pages (TXT, MD, DOCX, CSV). */
  page: z.number().int().nonnegative(),
  text: z.string(),
});

export const documentListResponse = z.strictObject({ records: z.array(documentRecord) });
