import type { Db } from '../../db/index';
import { prepare } from '../../db/prepared';
import { containsText } from '../../db/search';
import type { AdminRow } from '../../db/types';

export interface Admin {
  id: number;
  username: string;
  passwordHash: string;
  nickname: string;
  avatar: string;
  isFounder: boolean;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface NewAdmin {
  username: string;
  passwordHash: string;
  nickname?: string;
  avatar?: string;
  isFounder?: boolean;
  disabled?: boolean;
  now: number;
}

const columns = [
  'id',
  'username',
  'passwordHash',
  'nickname',
  'avatar',
  'isFounder',
  'disabled',
  'createdAt',
  'updatedAt',
] as const;

const toAdmin = (row: AdminRow): Admin => ({
  ...row,
  isFounder: row.isFounder === 1,
  disabled: row.disabled === 1,
});

/** Run on every signed-in admin request. */
const findById = prepare((db: Db, id: number) =>
  db.selectFrom('admins').select(columns).where('id', '=', id),
);
const roleRules = prepare((db: Db, adminId: number) =>
  db
    .selectFrom('adminRoles')
    .innerJoin('roles', 'roles.id', 'adminRoles.roleId')
    .select('roles.rules')
    .where('adminRoles.adminId', '=', adminId)
    .orderBy('roles.id'),
);

export class AdminsRepository {
  constructor(private readonly db: Db) {}

  async findById(id: number): Promise<Admin | undefined> {
    const row = await findById.executeTakeFirst(this.db, id);
    return row && toAdmin(row);
  }

  async findByUsername(username: string): Promise<Admin | undefined> {
    const row = await this.db
      .selectFrom('admins')
      .select(columns)
      .where('username', '=', username)
      .executeTakeFirst();
    return row && toAdmin(row);
  }

  async hasFounder(): Promise<boolean> {
    const row = await this.db
      .selectFrom('admins')
      .select('id')
      .where('isFounder', '=', 1)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async create(input: NewAdmin): Promise<Admin> {
    const row = await this.db
      .insertInto('admins')
      .values({
        username: input.username,
        passwordHash: input.passwordHash,
        nickname: input.nickname ?? '',
        avatar: input.avatar ?? '',
        isFounder: input.isFounder ? 1 : 0,
        disabled: input.disabled ? 1 : 0,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toAdmin(row);
  }

  async setDisabled(id: number, disabled: boolean, now: number): Promise<void> {
    await this.db
      .updateTable('admins')
      .set({ disabled: disabled ? 1 : 0, updatedAt: now })
      .where('id', '=', id)
      .execute();
  }

  async setPasswordHash(id: number, passwordHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('admins')
      .set({ passwordHash, updatedAt: now })
      .where('id', '=', id)
      .execute();
  }

  async page(
    keyword: string,
    offset: number,
    limit: number,
  ): Promise<{ records: Admin[]; total: number }> {
    const filtered = () => {
      const query = this.db.selectFrom('admins');
      return keyword
        ? query.where((eb) =>
            eb.or([containsText('username', keyword), containsText('nickname', keyword)]),
          )
        : query;
    };
    const [rows, count] = await Promise.all([
      filtered().select(columns).orderBy('id').limit(limit).offset(offset).execute(),
      filtered()
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { records: rows.map(toAdmin), total: Number(count.total) };
  }

  async setNickname(id: number, nickname: string, now: number): Promise<void> {
    await this.db
      .updateTable('admins')
      .set({ nickname, updatedAt: now })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('admins').where('id', '=', id).execute();
  }

  /** Roles of each admin, keyed by admin id. */
  async rolesOf(adminIds: readonly number[]): Promise<Map<number, { id: number; name: string }[]>> {
    const byAdmin = new Map<number, { id: number; name: string }[]>();
    if (adminIds.length === 0) return byAdmin;
    const rows = await this.db
      .selectFrom('adminRoles')
      .innerJoin('roles', 'roles.id', 'adminRoles.roleId')
      .select(['adminRoles.adminId', 'roles.id', 'roles.name'])
      .where('adminRoles.adminId', 'in', [...adminIds])
      .orderBy('roles.name')
      .execute();
    for (const row of rows) {
      const list = byAdmin.get(row.adminId) ?? [];
      list.push({ id: row.id, name: row.name });
      byAdmin.set(row.adminId, list);
    }
    return byAdmin;
  }

  /** Replaces the admin's roles. */
  async setRoles(adminId: number, roleIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('adminRoles').where('adminId', '=', adminId).execute();
    if (roleIds.length > 0) {
      await this.db
        .insertInto('adminRoles')
        .values(roleIds.map((roleId) => ({ adminId, roleId })))
        .execute();
    }
  }

  /** When each admin last used a session, keyed by admin id. */
  async lastActive(adminIds: readonly number[]): Promise<Map<number, number>> {
    if (adminIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('sessions')
      .select((eb) => ['subjectId', eb.fn.max('lastSeenAt').as('lastSeenAt')])
      .where('subjectType', '=', 'admin')
      .where('subjectId', 'in', [...adminIds])
      .groupBy('subjectId')
      .execute();
    return new Map(rows.map((r) => [r.subjectId, Number(r.lastSeenAt)]));
  }

  /** Ends the admin's sessions at once, except `keepSessionId` (the caller's own, on self-service). */
  async revokeSessions(adminId: number, now: number, keepSessionId?: number): Promise<void> {
    let query = this.db
      .updateTable('sessions')
      .set({ revokedAt: now })
      .where('subjectType', '=', 'admin')
      .where('subjectId', '=', adminId)
      .where('revokedAt', 'is', null);
    if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
    await query.execute();
  }

  async addRole(adminId: number, roleId: number): Promise<void> {
    await this.db.insertInto('adminRoles').values({ adminId, roleId }).execute();
  }

  /** The rule lists of every role the admin holds, as stored (JSON text). */
  async roleRules(adminId: number): Promise<string[]> {
    const rows = await roleRules.execute(this.db, adminId);
    return rows.map((r) => r.rules);
  }
}
