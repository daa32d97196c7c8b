import type { Generated, Kysely } from 'kysely';
import type { Database, Db } from '../../db/index';

/** Table shapes of the audit log (migration 2026_11_21_3000_admin). */
interface AuditLogTable {
  id: Generated<number>;
  adminId: number;
  adminUsername: string;
  action: string;
  target: string;
  detail: string;
  ip: string;
  createdAt: number;
}

type AuditTables = { auditLog: AuditLogTable };
export type AuditDb = Kysely<Database & AuditTables>;

export function auditDb(db: Db): AuditDb {
  return db.withTables<AuditTables>();
}
