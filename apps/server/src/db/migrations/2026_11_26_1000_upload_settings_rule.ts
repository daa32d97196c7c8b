import { hasRule } from '@atrium/shared/rules';
import type { Kysely } from 'kysely';
import type { MigrationDb } from '../columns';

interface RolesOnly {
  roles: { id: number; rules: string };
}

function parse(text: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Upload settings get a rule of their own, `system/upload` (DESIGN 7), instead of sharing
 * `system/setting`. Every role that could open them keeps that: a role granting `system/setting`
 * but not `system/upload` gains `system/upload*`, and nobody else gains anything.
 */
export async function up(db: MigrationDb): Promise<void> {
  const roles = db as unknown as Kysely<RolesOnly>;
  const rows = await roles.selectFrom('roles').select(['id', 'rules']).execute();
  for (const row of rows) {
    const rules = parse(row.rules);
    if (!rules || !hasRule(rules, 'system/setting') || hasRule(rules, 'system/upload')) continue;
    await roles
      .updateTable('roles')
      .set({ rules: JSON.stringify([...rules, 'system/upload*']) })
      .where('id', '=', row.id)
      .execute();
  }
}

/** Nothing to undo: `system/upload*` grants nothing `system/setting` did not before. */
export async function down(): Promise<void> {}
