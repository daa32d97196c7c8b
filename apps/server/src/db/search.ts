import { sql, type Expression, type SqlBool } from 'kysely';

/** PostgreSQL's pg_trgm index of file names (migration 2026_11_29_7000). */
export const trigramIndex = 'files_name_trgm_idx';

/**
 * `column` contains `keyword`, case-insensitively, with `%` and `_` in the keyword taken
 * literally. Written the same way for SQLite and PostgreSQL (whose LIKE is case-sensitive).
 */
export function containsText(column: string, keyword: string): Expression<SqlBool> {
  const escaped = keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`;
}

/**
 * The same test written as `ilike` (PostgreSQL), which a pg_trgm GIN index on `column` serves;
 * `lower() like` would need an index of its own.
 */
export function containsTextIlike(column: string, keyword: string): Expression<SqlBool> {
  const escaped = keyword.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`${sql.ref(column)} ilike ${`%${escaped}%`} escape '\\'`;
}
