import { sql, type Insertable } from 'kysely';
import type { ChatDb, ChatUsageTable } from '../chat.tables';

export interface UsageSums {
  messages: number;
  promptTokens: number;
  completionTokens: number;
  /** Millionths of the site's currency. */
  cost: number;
}

export interface UsageFilter {
  from: string;
  to: string;
  roomId: number;
  memberId: number;
}

const sums = {
  messages: sql<number>`count(*)`,
  promptTokens: sql<number>`coalesce(sum(prompt_tokens), 0)`,
  completionTokens: sql<number>`coalesce(sum(completion_tokens), 0)`,
  cost: sql<number>`coalesce(sum(cost), 0)`,
};

/** PostgreSQL answers count/sum as bigint or numeric strings; SQLite as numbers. */
const toSums = (row: {
  messages: unknown;
  promptTokens: unknown;
  completionTokens: unknown;
  cost: unknown;
}): UsageSums => ({
  messages: Number(row.messages),
  promptTokens: Number(row.promptTokens),
  completionTokens: Number(row.completionTokens),
  cost: Number(row.cost),
});

/** The usage ledger: one row per answer asked for (Kysely only, dialect-neutral). */
export class UsageRepository {
  constructor(private readonly db: ChatDb) {}

  async insert(row: Insertable<ChatUsageTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('chatUsage')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async setTokens(
    messageId: number,
    promptTokens: number,
    completionTokens: number,
    estimated: boolean,
  ): Promise<void> {
    // The latest row of the message: a regenerated answer is a new row with the same message id.
    const latest = await this.db
      .selectFrom('chatUsage')
      .select('id')
      .where('messageId', '=', messageId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!latest) return;
    await this.db
      .updateTable('chatUsage')
      .set({ promptTokens, completionTokens, estimated: estimated ? 1 : 0 })
      .where('id', '=', latest.id)
      .execute();
  }

  private filtered(filter: UsageFilter) {
    let query = this.db
      .selectFrom('chatUsage')
      .where('day', '>=', filter.from)
      .where('day', '<=', filter.to);
    if (filter.roomId > 0) query = query.where('roomId', '=', filter.roomId);
    if (filter.memberId > 0) query = query.where('memberId', '=', filter.memberId);
    return query;
  }

  async byDay(filter: UsageFilter): Promise<(UsageSums & { day: string })[]> {
    const rows = await this.filtered(filter)
      .select([
        'day',
        sums.messages.as('messages'),
        sums.promptTokens.as('promptTokens'),
        sums.completionTokens.as('completionTokens'),
        sums.cost.as('cost'),
      ])
      .groupBy('day')
      .orderBy('day')
      .execute();
    return rows.map((r) => ({ day: r.day, ...toSums(r) }));
  }

  async byRoom(filter: UsageFilter): Promise<(UsageSums & { roomId: number })[]> {
    const rows = await this.filtered(filter)
      .select([
        'roomId',
        sums.messages.as('messages'),
        sums.promptTokens.as('promptTokens'),
        sums.completionTokens.as('completionTokens'),
        sums.cost.as('cost'),
      ])
      .groupBy('roomId')
      .execute();
    return rows.map((r) => ({ roomId: r.roomId, ...toSums(r) }));
  }

  async byMember(
    filter: UsageFilter,
    limit: number,
  ): Promise<(UsageSums & { memberId: number; username: string })[]> {
    const rows = await this.filtered(filter)
      .leftJoin('members', 'members.id', 'chatUsage.memberId')
      .select([
        'chatUsage.memberId',
        sql<string | null>`max(members.username)`.as('username'),
        sums.messages.as('messages'),
        sql<number>`coalesce(sum(chat_usage.prompt_tokens), 0)`.as('promptTokens'),
        sql<number>`coalesce(sum(chat_usage.completion_tokens), 0)`.as('completionTokens'),
        sql<number>`coalesce(sum(chat_usage.cost), 0)`.as('cost'),
      ])
      .groupBy('chatUsage.memberId')
      .orderBy(
        sql`coalesce(sum(chat_usage.prompt_tokens), 0) + coalesce(sum(chat_usage.completion_tokens), 0)`,
        'desc',
      )
      .limit(limit)
      .execute();
    return rows.map((r) => ({ memberId: r.memberId, username: r.username ?? '', ...toSums(r) }));
  }
}
