import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * `column` contains `keyword`, case-insensitively, with `%` and `_` in the keyword taken
 * literally. Written the same way for SQLite and PostgreSQL (whose LIKE is case-sensitive).
 */
export function containsText(column: string, keyword: string): Expression<SqlBool> {
  const escaped = keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`;
}
