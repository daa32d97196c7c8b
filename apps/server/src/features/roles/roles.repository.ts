import type { Db } from '../../db/index';
import type { RoleRow } from '../../db/types';

export interface Role {
  id: number;
  name: string;
  rules: string[];
  createdAt: number;
  updatedAt: number;
}

const columns = ['id', 'name', 'rules', 'createdAt', 'updatedAt'] as const;

/** Rules are stored as JSON text; anything that is not a list of strings reads as no rules. */
export function parseRules(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

const toRole = (row: RoleRow): Role => ({ ...row, rules: parseRules(row.rules) });

export class RolesRepository {
  constructor(private readonly db: Db) {}

  async findById(id: number): Promise<Role | undefined> {
    const row = await this.db
      .selectFrom('roles')
      .select(columns)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRole(row);
  }

  async findByName(name: string): Promise<Role | undefined> {
    const row = await this.db
      .selectFrom('roles')
      .select(columns)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && toRole(row);
  }

  async findByIds(ids: readonly number[]): Promise<Role[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('roles')
      .select(columns)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map(toRole);
  }

  async list(): Promise<Role[]> {
    const rows = await this.db.selectFrom('roles').select(columns).orderBy('name').execute();
    return rows.map(toRole);
  }

  /** How many admins hold each role, keyed by role id (roles nobody holds are absent). */
  async adminCounts(): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('adminRoles')
      .select((eb) => ['roleId', eb.fn.countAll<number>().as('count')])
      .groupBy('roleId')
      .execute();
    return new Map(rows.map((r) => [r.roleId, Number(r.count)]));
  }

  async update(id: number, input: { name: string; rules: string[]; now: number }): Promise<void> {
    await this.db
      .updateTable('roles')
      .set({ name: input.name, rules: JSON.stringify(input.rules), updatedAt: input.now })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('roles').where('id', '=', id).execute();
  }

  async create(input: { name: string; rules: string[]; now: number }): Promise<Role> {
    const row = await this.db
      .insertInto('roles')
      .values({
        name: input.name,
        rules: JSON.stringify(input.rules),
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toRole(row);
  }
}
