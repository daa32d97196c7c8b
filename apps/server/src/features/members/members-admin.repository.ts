import { libraries, type Library } from '@atrium/shared/contract/files';
import type { StorageUse } from '@atrium/shared/contract/members';
import type { Db } from '../../db/index';
import { containsText } from '../../db/search';

export interface MemberListRow {
  id: number;
  username: string;
  email: string | null;
  phone: string | null;
  nickname: string;
  avatar: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** The part of the file library's `files` table this feature reads (migration ..._1000_files). */
type FilesTable = {
  ownerType: string;
  ownerId: number;
  library: string;
  size: number;
};

const columns = [
  'id',
  'username',
  'email',
  'phone',
  'nickname',
  'avatar',
  'disabled',
  'createdAt',
  'updatedAt',
] as const;

/** Queries of the admin member list; account rules stay with the members feature. */
export class MembersAdminRepository {
  constructor(private readonly db: Db) {}

  async page(
    keyword: string,
    offset: number,
    limit: number,
  ): Promise<{ records: MemberListRow[]; total: number }> {
    const filtered = () => {
      const query = this.db.selectFrom('members');
      return keyword
        ? query.where((eb) =>
            eb.or([
              containsText('username', keyword),
              containsText('email', keyword),
              containsText('phone', keyword),
              containsText('nickname', keyword),
            ]),
          )
        : query;
    };
    const [rows, count] = await Promise.all([
      filtered().select(columns).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      filtered()
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return {
      records: rows.map((r) => ({ ...r, disabled: r.disabled === 1 })),
      total: Number(count.total),
    };
  }

  async setPasswordHash(id: number, passwordHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('members')
      .set({ passwordHash, updatedAt: now })
      .where('id', '=', id)
      .execute();
  }

  /** When each member last used a session, keyed by member id. */
  async lastActive(memberIds: readonly number[]): Promise<Map<number, number>> {
    if (memberIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('sessions')
      .select((eb) => ['subjectId', eb.fn.max('lastSeenAt').as('lastSeenAt')])
      .where('subjectType', '=', 'member')
      .where('subjectId', 'in', [...memberIds])
      .groupBy('subjectId')
      .execute();
    return new Map(rows.map((r) => [r.subjectId, Number(r.lastSeenAt)]));
  }

  /** Files and bytes in the member's own library, per library. */
  async storage(memberId: number): Promise<Record<Library, StorageUse>> {
    const rows = await this.db
      .withTables<{ files: FilesTable }>()
      .selectFrom('files')
      .select((eb) => [
        'library',
        eb.fn.countAll<number>().as('files'),
        eb.fn.sum<number>('size').as('bytes'),
      ])
      .where('ownerType', '=', 'member')
      .where('ownerId', '=', memberId)
      .groupBy('library')
      .execute();
    const use = Object.fromEntries(libraries.map((l) => [l, { files: 0, bytes: 0 }])) as Record<
      Library,
      StorageUse
    >;
    for (const row of rows) {
      const library = libraries.find((l) => l === row.library);
      if (library) use[library] = { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
    }
    return use;
  }
}
