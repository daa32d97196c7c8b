/**
 * Export, import and share limits the browser needs too, kept apart from the zod contract
 * (contract/chat-export.ts) so importing them does not put zod in the page's bundle.
 */

/** What the JSON export's `format` field holds; an import refuses any other. */
export const chatExportFormat = 'atrium-chat-export';
/** The JSON export's version; an import refuses any other. */
export const chatExportVersion = 1;
/** The largest JSON file an import takes, in characters (about bytes for most text). */
export const chatImportMaxChars = 10 * 1024 * 1024;
/** Conversations one import may hold. */
export const chatImportMaxConversations = 2000;
/** Messages one imported conversation may hold. */
export const chatImportMaxMessages = 5000;
/** Messages one import may hold in all its conversations. */
export const chatImportMaxTotalMessages = 100_000;
/** Share links a member may hold at once. */
export const chatSharesMax = 200;
