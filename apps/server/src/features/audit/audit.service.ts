import type { Paged } from '@atrium/shared/contract/paging';
import type { AuditEntry, AuditOptions } from '@atrium/shared/contract/audit';
import type { Db } from '../../db/index';
import { AuditRepository, type AuditFilter, type NewAuditEntry } from './audit.repository';

export class AuditService {
  private readonly repo: AuditRepository;

  constructor(private readonly db: Db) {
    this.repo = new AuditRepository(db);
  }

  record(entry: NewAuditEntry): Promise<void> {
    return this.repo.insert(entry);
  }

  async list(filter: AuditFilter & { page: number; pageSize: number }): Promise<Paged<AuditEntry>> {
    const { records, total } = await this.repo.page(
      filter,
      (filter.page - 1) * filter.pageSize,
      filter.pageSize,
    );
    return { records, total, page: filter.page, pageSize: filter.pageSize };
  }

  async options(): Promise<AuditOptions> {
    const [admins, actions] = await Promise.all([
      this.db.selectFrom('admins').select(['id', 'username']).orderBy('username').execute(),
      this.repo.actions(),
    ]);
    return { admins, actions };
  }
}
