import type { Db } from './index';

/** Admin-editable settings: one JSON value per key. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  /** The parsed value, or undefined when the key is unset or holds broken JSON. */
  async get(key: string): Promise<unknown> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown, now: number): Promise<void> {
    const text = JSON.stringify(value);
    await this.db
      .insertInto('settings')
      .values({ key, value: text, updatedAt: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updatedAt: now }))
      .execute();
  }

  /** Writes the value only when the key is unset; the first of several concurrent writers wins. */
  async setIfAbsent(key: string, value: unknown, now: number): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updatedAt: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('settings').where('key', '=', key).execute();
  }
}
