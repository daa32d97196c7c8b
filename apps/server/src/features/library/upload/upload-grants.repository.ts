import type { Library } from '@atrium/shared/contract/files';
import type { Kysely, Selectable } from 'kysely';
import type { Database, Db } from '../../../db/index';

/** A token that opened an upload, with the file it may go on sending (migration upload_grants). */
export interface UploadGrantsTable {
  tokenHash: string;
  /** The sign-in session the token belonged to: the grant lives no longer than it. */
  sessionId: number;
  library: Library;
  md5: string;
  size: number;
  name: string;
  usedAt: number;
}

export type UploadGrantRow = Selectable<UploadGrantsTable>;

const columns = ['tokenHash', 'sessionId', 'library', 'md5', 'size', 'name', 'usedAt'] as const;

/** Upload grants (Kysely only, dialect-neutral). */
export class UploadGrantsRepository {
  private readonly db: Kysely<Database & { uploadGrants: UploadGrantsTable }>;

  constructor(db: Db) {
    this.db = db.withTables<{ uploadGrants: UploadGrantsTable }>();
  }

  /** Records a grant, or moves its last use to `row.usedAt` when that was before `touchBefore`. */
  async record(row: UploadGrantRow, touchBefore: number): Promise<void> {
    await this.db
      .insertInto('uploadGrants')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['tokenHash', 'library', 'md5', 'size', 'name'])
          .doUpdateSet({ usedAt: row.usedAt, sessionId: row.sessionId })
          .where('uploadGrants.usedAt', '<', touchBefore),
      )
      .execute();
  }

  /** The grants of a token used at or after `since`. */
  active(tokenHash: string, since: number): Promise<UploadGrantRow[]> {
    return this.db
      .selectFrom('uploadGrants')
      .select(columns)
      .where('tokenHash', '=', tokenHash)
      .where('usedAt', '>=', since)
      .execute();
  }

  /** Deletes a session's grants last used before `before`. */
  async dropStale(sessionId: number, before: number): Promise<void> {
    await this.db
      .deleteFrom('uploadGrants')
      .where('sessionId', '=', sessionId)
      .where('usedAt', '<', before)
      .execute();
  }
}
