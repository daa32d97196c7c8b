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
