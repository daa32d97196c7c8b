import { dataPathsOf } from '@atrium/shared/file-refs';
import { holdFiles } from '../library/index';
import type { Profile } from '@atrium/shared/contract/accounts';
import type { Db } from '../../db/index';

/** The member's own account rows: profile, password and the member's sessions. */
export class AccountRepository {
  constructor(private readonly db: Db) {}

  async profile(memberId: number): Promise<Profile | undefined> {
    return this.db
      .selectFrom('members')
      .select(['id', 'username', 'nickname', 'avatar', 'email', 'phone', 'createdAt'])
      .where('id', '=', memberId)
      .executeTakeFirst();
  }

  async passwordHash(memberId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('members')
      .select('passwordHash')
      .where('id', '=', memberId)
      .executeTakeFirst();
    return row?.passwordHash;
  }

  /** The member whose e-mail or phone is exactly this (normalised) value. */
  async findIdByContact(kind: 'email' | 'phone', value: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('members')
      .select('id')
      .where(kind, '=', value)
      .executeTakeFirst();
    return row?.id;
  }

  async saveProfile(
    memberId: number,
    profile: { nickname: string; avatar: string },
    now: number,
  ): Promise<void> {
    // The avatar is a use of a library file (issue 17's usage graph), recorded with it.
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('members')
        .set({ nickname: profile.nickname, avatar: profile.avatar, updatedAt: now })
        .where('id', '=', memberId)
        .execute();
      const held = dataPathsOf([profile.avatar]).map((path) => ({
        kind: 'memberAvatar' as const,
        path,
      }));
      await holdFiles(trx, { kinds: ['memberAvatar'], holderId: memberId, memberId }, held);
    });
  }

  async setPasswordHash(memberId: number, passwordHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('members')
      .set({ passwordHash, updatedAt: now })
      .where('id', '=', memberId)
      .execute();
  }

  /** Revokes the member's live sessions, all of them or all but `keepSessionId`. */
  async revokeSessions(memberId: number, now: number, keepSessionId?: number): Promise<void> {
    let query = this.db
      .updateTable('sessions')
      .set({ revokedAt: now })
      .where('subjectType', '=', 'member')
      .where('subjectId', '=', memberId)
      .where('revokedAt', 'is', null);
    if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
    await query.execute();
  }
}
