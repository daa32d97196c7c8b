// @ts-check
// The rows an import writes, as SQL: one source for the thread that writes them on SQLite
// (archive-writer.worker.mjs, better-sqlite3) and for the instance that writes them on
// PostgreSQL (archive-import.ts, Kysely). Plain JavaScript, checked by the compiler (checkJs)
// and lint, so the worker runs it unchanged from the sources and esbuild bundles it into the
// worker in dist.

/**
 * @typedef {object} ImportedMessage A message as the import stores it (archive-writer.ts
 *   `prepare`), ids still the file's.
 * @property {number} id The message's id in the file.
 * @property {number | null} parentId Its parent's id in the file.
 * @property {'user' | 'assistant'} role
 * @property {string} content
 * @property {string} images JSON list of the image paths kept.
 * @property {string} status
 * @property {string} error
 * @property {number} promptTokens
 * @property {number} completionTokens
 * @property {number} tokensEstimated
 * @property {number} createdAt
 * @property {number} updatedAt
 * @property {boolean} holds Whether it keeps images (held once written).
 */

/**
 * @typedef {object} ImportedConversation A conversation as the import stores it.
 * @property {number} roomId
 * @property {string} title The stored title.
 * @property {number | null} leafId The id in the file of the message its branch ends at.
 * @property {number} createdAt
 * @property {number} updatedAt
 * @property {ImportedMessage[]} messages
 */

/** The columns of an imported conversation's row, in the order of `conversationValues`. */
export const conversationColumns = ['room_id', 'member_id', 'title', 'created_at', 'updated_at'];

/** The columns of an imported message's row, in the order of `messageValues`. */
export const messageColumns = [
  'conversation_id',
  'parent_id',
  'role',
  'content',
  'images',
  'status',
  'error',
  'model_id',
  'prompt_tokens',
  'completion_tokens',
  'tokens_estimated',
  'created_at',
  'updated_at',
];

/**
 * @param {ImportedConversation} c
 * @param {number} memberId
 * @returns {(string | number)[]}
 */
export const conversationValues = (c, memberId) => [
  c.roomId,
  memberId,
  c.title,
  c.createdAt,
  c.updatedAt,
];

/**
 * An imported message's values; no model wrote it here.
 * @param {number} conversationId
 * @param {number | null} parentId The stored id of its parent.
 * @param {ImportedMessage} m
 * @returns {(string | number | null)[]}
 */
export const messageValues = (conversationId, parentId, m) => [
  conversationId,
  parentId,
  m.role,
  m.content,
  m.images,
  m.status,
  m.error,
  null,
  m.promptTokens,
  m.completionTokens,
  m.tokensEstimated,
  m.createdAt,
  m.updatedAt,
];

/**
 * An insert of `columns` into `table` with `?` placeholders (better-sqlite3's).
 * @param {string} table
 * @param {readonly string[]} columns
 */
export const insertSql = (table, columns) =>
  `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`;
