// @ts-check
// The hard bounds on reading one document (issue 26, point 7), shared by the reader's thread
// (extract.worker.mjs) and the instance that runs it (extractor.ts, extraction.ts). A 500 KB
// file can inflate to gigabytes (a "decompression bomb"): every bound below holds whatever the
// file claims about itself. README "Chat documents" lists them.

/** Bytes a document may inflate to: DOCX XML parts, PDF streams other than images. */
export const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;
/** Characters of text read from one document. */
export const MAX_TEXT_CHARS = 5_000_000;
/** Pages read from one PDF. */
export const MAX_PAGES = 3_000;
/** Passages one document is split into (MAX_TEXT_CHARS of text make about 5,900). */
export const MAX_PASSAGES = 6_000;

/** The reader thread's heap (V8 old generation), MB; past it the thread dies, not the server. */
export const READER_HEAP_MB = 384;
/**
 * How far the process's resident memory may grow while one document is read, beyond what the
 * heap limit bounds (decoded streams live outside the heap): past it the thread is stopped.
 */
export const READER_RSS_GROWTH_MB = 768;

/**
 * Why a document past these bounds is not read: catalogue messages (packages/shared
 * messages/chat.ts), rendered in the member's language when the document list is read.
 */
export const tooLargeUnpacked = { key: 'docs.tooLargeUnpacked' };
export const tooMuchText = { key: 'docs.tooMuchText', params: { max: MAX_TEXT_CHARS } };
export const tooManyPages = { key: 'docs.tooManyPages', params: { max: MAX_PAGES } };
