import type { Db } from '../../db/index';
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

export class AdminsRepository {
  constructor(private readonly db: Db) {}

  async findById(id: number): Promise<Admin | undefined> {
    const row = await this.db
      .selectFrom('admins')
      .select(columns)
      .where('id', '=', id)
      .executeTakeFirst();
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

  async addRole(adminId: number, roleId: number): Promise<void> {
    await this.db.insertInto('adminRoles').values({ adminId, roleId }).execute();
  }

  /** The rule lists of every role the admin holds, as stored (JSON text). */
  async roleRules(adminId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('adminRoles')
      .innerJoin('roles', 'roles.id', 'adminRoles.roleId')
      .select('roles.rules')
      .where('adminRoles.adminId', '=', adminId)
      .orderBy('roles.id')
      .execute();
    return rows.map((r) => r.rules);
  }
}
