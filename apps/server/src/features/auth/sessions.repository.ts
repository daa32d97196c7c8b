import type { Db } from '../../db/index';
import { prepare } from '../../db/prepared';
import type { SessionRow, SubjectType } from '../../db/types';

export type Session = SessionRow;

export interface NewSession {
  subjectType: SubjectType;
  subjectId: number;
  tokenHash: string;
  now: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
}

const columns = [
  'id',
  'subjectType',
  'subjectId',
  'tokenHash',
  'prevTokenHash',
  'rotatedAt',
  'createdAt',
  'lastSeenAt',
  'expiresAt',
  'ip',
  'userAgent',
  'revokedAt',
] as const;

/** Run on every signed-in request. */
const findByTokenHash = prepare((db: Db, subjectType: SubjectType, hash: string) =>
  db
    .selectFrom('sessions')
    .select(columns)
    .where('subjectType', '=', subjectType)
    .where((eb) => eb.or([eb('tokenHash', '=', hash), eb('prevTokenHash', '=', hash)])),
);

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async create(input: NewSession): Promise<Session> {
    return this.db
      .insertInto('sessions')
      .values({
        subjectType: input.subjectType,
        subjectId: input.subjectId,
        tokenHash: input.tokenHash,
        prevTokenHash: null,
        rotatedAt: input.now,
        createdAt: input.now,
        lastSeenAt: input.now,
        expiresAt: input.expiresAt,
        ip: input.ip,
        userAgent: input.userAgent,
        revokedAt: null,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  /** The session whose current or previous token has this hash. */
  async findByTokenHash(subjectType: SubjectType, hash: string): Promise<Session | undefined> {
    return findByTokenHash.executeTakeFirst(this.db, subjectType, hash);
  }

  findById(id: number): Promise<Session | undefined> {
    return this.db.selectFrom('sessions').select(columns).where('id', '=', id).executeTakeFirst();
  }

  async touch(id: number, lastSeenAt: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ lastSeenAt, expiresAt })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Swaps in a new token only if `currentHash` is still current, so of two parallel requests
   * exactly one rotates. Returns whether this call did.
   */
  async rotate(
    id: number,
    currentHash: string,
    next: { tokenHash: string; now: number; expiresAt: number },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({
        tokenHash: next.tokenHash,
        prevTokenHash: currentHash,
        rotatedAt: next.now,
        lastSeenAt: next.now,
        expiresAt: next.expiresAt,
      })
      .where('id', '=', id)
      .where('tokenHash', '=', currentHash)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async revoke(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revokedAt: now })
      .where('id', '=', id)
      .where('revokedAt', 'is', null)
      .execute();
  }

  async revokeAllFor(subjectType: SubjectType, subjectId: number, now: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revokedAt: now })
      .where('subjectType', '=', subjectType)
      .where('subjectId', '=', subjectId)
      .where('revokedAt', 'is', null)
      .execute();
  }

  /** Drops sessions that can no longer be used, keeping the table small. */
  async deleteExpired(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('revokedAt', 'is not', null)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
