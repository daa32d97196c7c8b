import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { SeenQueries } from '../../testing/seen-queries';
import { insertBareAnswer } from '../chat/chat.testing';
import { ChatDocsRepository } from './chat-docs.repository';
import type { DocsDb } from './chat-docs.tables';

let testDb: TestDb;

beforeEach(async () => {
  testDb = await createTestDb('sqlite');
  // A bare answer: its conversation, member and room play no part here.
  await sql`pragma foreign_keys = off`.execute(testDb.db);
});
afterEach(() => testDb.cleanup());

describe("an answer's citations", () => {
  it('are stored once at its end, and an answer that cites nothing costs no statement', async () => {
    const id = await insertBareAnswer(
      testDb.db as unknown as Parameters<typeof insertBareAnswer>[0],
      {
        status: 'done',
      },
    );
    const seen = new SeenQueries();
    const repo = new ChatDocsRepository(testDb.db.withPlugin(seen) as unknown as DocsDb);
    await repo.addCitations(id, []);
    expect(seen.nodes).toEqual([]);
    const passage = { n: 2, name: 'report.pdf', path: 'docs/report.pdf', page: 3, text: 'Cairo' };
    await repo.addCitations(id, [passage]);
    expect(seen.nodes).toHaveLength(1);
    expect((await repo.citationsOf([id])).map(({ n, name, page }) => [n, name, page])).toEqual([
      [2, 'report.pdf', 3],
    ]);
  });
});
