import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbPerTest } from '../../testing/db';
import { SeenQueries } from '../../testing/seen-queries';
import { UsageRepository } from './budgets/index';
import { chatDb, type ChatDb } from './chat.tables';
import { ChatRepository } from './conversations/index';

const tests = testDbPerTest();

/** SQLite's plan of each query `run` makes, one line per query. */
async function plansOf(chat: ChatDb, run: (db: ChatDb) => Promise<unknown>): Promise<string[]> {
  const seen = new SeenQueries();
  await run(chat.withPlugin(seen));
  const plans: string[] = [];
  for (const node of seen.nodes) {
    const query = chat.getExecutor().compileQuery(node, { queryId: 'plan' });
    const { rows } = await chat
      .withoutPlugins()
      .executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
    plans.push(rows.map((r) => r.detail).join(' | '));
  }
  return plans;
}

// Each of these ran once per send or per end; through the wrong index it read a row for every
// answer streaming at the time (issue 32, goal 4: 1,000 live answers).
describe('the reads of a send and an end stay on their own rows (SQLite plans)', () => {
  it("finds a conversation's streaming answers through the conversation's index", async () => {
    const { db } = await tests.open('sqlite');
    const plans = await plansOf(chatDb(db), (chat) => new ChatRepository(chat).streamingIn(1));
    expect(plans).toEqual([expect.stringContaining('USING INDEX chat_messages_conversation_idx')]);
  });

  it("finds an answer's usage row through its message", async () => {
    const { db } = await tests.open('sqlite');
    const plans = await plansOf(chatDb(db), (chat) =>
      new UsageRepository(chat).setTokens(1, 1, 1, false),
    );
    expect(plans).toEqual([expect.stringContaining('INDEX chat_usage_message_idx (message_id=?)')]);
  });
});
