import type { Db } from '../../db/index';
import { auditDb, type AuditDb } from './audit.tables';

export interface NewAuditEntry {
  adminId: number;
  adminUsername: string;
  action: string;
  target: string;
  detail: string;
  ip: string;
  createdAt: number;
}

export interface AuditFilter {
  adminId?: number | undefined;
  action?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** An entry as stored; the list adds its phrase. */
export interface StoredAuditEntry extends NewAuditEntry {
  id: number;
}

const columns = [
  'id',
  'adminId',
  'adminUsername',
  'action',
  'target',
  'detail',
  'ip',
  'createdAt',
] as const;

export class AuditRepository {
  private readonly db: AuditDb;

  constructor(db: Db) {
    this.db = auditDb(db);
  }

  async insert(entry: NewAuditEntry): Promise<void> {
    await this.db.insertInto('auditLog').values(entry).execute();
  }

  private filtered(filter: AuditFilter) {
    let query = this.db.selectFrom('auditLog');
    if (filter.adminId !== undefined) query = query.where('adminId', '=', filter.adminId);
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.from !== undefined) query = query.where('createdAt', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('createdAt', '<=', filter.to);
    return query;
  }

  async page(
    filter: AuditFilter,
    offset: number,
    limit: number,
  ): Promise<{ records: StoredAuditEntry[]; total: number }> {
    const [records, count] = await Promise.all([
      this.filtered(filter)
        .select(columns)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.filtered(filter)
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { records, total: Number(count.total) };
  }

  async actions(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('auditLog')
      .select('action')
      .distinct()
      .orderBy('action')
      .execute();
    return rows.map((r) => r.action);
  }
}
