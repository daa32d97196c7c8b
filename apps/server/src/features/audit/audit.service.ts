import type { Paged } from '@atrium/shared/contract/paging';
import type { AuditEntry, AuditOptions } from '@atrium/shared/contract/audit';
import type { Language } from '@atrium/shared/messages/catalogue';
import type { Db } from '../../db/index';
import { auditActionText } from './audit.phrases';
import { AuditRepository, type AuditFilter, type NewAuditEntry } from './audit.repository';

export class AuditService {
  private readonly repo: AuditRepository;

  constructor(private readonly db: Db) {
    this.repo = new AuditRepository(db);
  }

  record(entry: NewAuditEntry): Promise<void> {
    return this.repo.insert(entry);
  }

  /** A page of the log, each action also as a phrase in `lang` (stored as the route). */
  async list(
    filter: AuditFilter & { page: number; pageSize: number },
    lang: Language,
  ): Promise<Paged<AuditEntry>> {
    const { records, total } = await this.repo.page(
      filter,
      (filter.page - 1) * filter.pageSize,
      filter.pageSize,
    );
    return {
      records: records.map((entry) => ({
        ...entry,
        actionText: auditActionText(lang, entry.action),
      })),
      total,
      page: filter.page,
      pageSize: filter.pageSize,
    };
  }

  /** Who and what the log holds, for its filters: each action with its phrase in `lang`. */
  async options(lang: Language): Promise<AuditOptions> {
    const [admins, actions] = await Promise.all([
      this.db.selectFrom('admins').select(['id', 'username']).orderBy('username').execute(),
      this.repo.actions(),
    ]);
    return {
      admins,
      actions: actions
        .map((action) => ({ action, text: auditActionText(lang, action) }))
        .sort((a, b) => a.text.localeCompare(b.text, lang)),
    };
  }
}
