import type { OutboxStatus, TargetKind } from '@atrium/shared/contract/accounts';
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database, Db } from '../../db/index';

/** Table `message_outbox` (migration 2026_11_21_2000_accounts). */
interface MessageOutboxTable {
  id: Generated<number>;
  channel: TargetKind;
  transport: string;
  target: string;
  subject: string;
  body: string;
  status: OutboxStatus;
  error: string;
  ip: string;
  createdAt: number;
}

type OutboxDb = Kysely<Database & { messageOutbox: MessageOutboxTable }>;

export type OutboxRow = Selectable<MessageOutboxTable>;
export type NewOutboxRow = Omit<OutboxRow, 'id'>;

const columns = [
  'id',
  'channel',
  'transport',
  'target',
  'subject',
  'body',
  'status',
  'error',
  'ip',
  'createdAt',
] as const;

export class OutboxRepository {
  private readonly db: OutboxDb;

  constructor(db: Db) {
    this.db = db.withTables<{ messageOutbox: MessageOutboxTable }>();
  }

  async add(row: NewOutboxRow): Promise<number> {
    const inserted = await this.db
      .insertInto('messageOutbox')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** Newest first. */
  async page(page: number, pageSize: number): Promise<{ rows: OutboxRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('messageOutbox')
        .select(columns)
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      this.db
        .selectFrom('messageOutbox')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async deleteOlderThan(time: number): Promise<void> {
    await this.db.deleteFrom('messageOutbox').where('createdAt', '<', time).execute();
  }
}
