import { PostgresAdapter, sql } from 'kysely';
import { every } from '../../every';
import type { FastifyBaseLogger } from 'fastify';
import type { FilesDb } from '../../db/files.tables';

/**
 * Pages of the SQLite name index (FTS5, migration 2026_11_29_7000) merged per step. Each file
 * saved adds a small segment of its own; FTS5's automerge keeps a few dozen of them at a million
 * files, and a search then probes every segment for every trigram: ten times slower than one
 * merged b-tree (measured at a million files: 1-3 ms against 0.1-0.3 ms a query). A step of 32
 * pages holds the one SQLite connection for a few milliseconds; a merged index makes it a no-op.
 */
const pagesPerStep = 32;

/**
 * Keeps merging the name index's segments into one, a small step every `intervalMs`, so search
 * stays an index probe as the library grows. PostgreSQL's GIN index is kept by autovacuum: there
 * this does nothing. Returns the stop function.
 */
export function startNameIndexMerger(
  db: FilesDb,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => void {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return () => undefined;
  return every(
    intervalMs,
    // A negative page count merges every segment, not only levels that are full.
    () =>
      sql`insert into files_fts (files_fts, rank) values ('merge', ${-pagesPerStep})`.execute(db),
    (error) => log.warn({ err: error }, 'merging the file name index failed'),
  );
}
