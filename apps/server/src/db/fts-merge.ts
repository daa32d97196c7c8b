import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { every } from '../every';

/**
 * SQLite's full-text indexes (FTS5): every committed write adds a small segment (b-tree) of its
 * own, and FTS5's automerge keeps a few dozen of them; a search probes every segment for every
 * trigram, ten times slower than one merged b-tree (measured at a million files: 1-3 ms against
 * 0.1-0.3 ms a query). One merger keeps merging every table's segments into one, a small step at
 * a time. PostgreSQL's GIN indexes are kept by autovacuum: there this does nothing.
 *
 * Automerge stays on: with it off, a full merge stepped beside continuing writes runs FTS5 out of
 * segment ids ("database or disk is full" after about 2,000 segments; measured in issue 26).
 */
export const ftsTables = [
  'files_fts',
  'chat_message_fts',
  'chat_title_fts',
  'chat_doc_passages_fts',
] as const;

/** Pages a step merges: a few milliseconds of the one connection, a no-op once merged. */
const pagesPerStep = 32;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema holding FTS tables
type AnyDb = Kysely<any>;

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Writers on another connection (an import's thread) that the merger leaves the lock to. */
let pausedBy = 0;

/**
 * Pauses merging while a bulk writer on another connection runs: a merge step is a write, and
 * on the main thread it would wait for that writer's lock with the event loop held. Returns the
 * function that ends the pause.
 */
export function pauseFtsMerging(): () => void {
  pausedBy += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    pausedBy -= 1;
  };
}

/**
 * Merges every FTS table toward one segment, one step per table every `intervalMs` (a negative
 * page count merges every segment, not only levels that are full). Returns the stop function.
 */
export function startFtsMerger(db: AnyDb, log: FastifyBaseLogger, intervalMs: number): () => void {
  if (db.getExecutor().adapter instanceof PostgresAdapter || intervalMs <= 0)
    return () => undefined;
  return every(
    intervalMs,
    async () => {
      for (const table of ftsTables) {
        if (pausedBy > 0) return;
        await sql`insert into ${sql.table(table)} (${sql.id(table)}, rank)
          values ('merge', ${-pagesPerStep})`.execute(db);
        await turn();
      }
    },
    (error) => log.warn({ err: error }, 'merging the full-text indexes failed'),
  );
}
