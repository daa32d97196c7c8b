import type { Insertable, Updateable } from 'kysely';
import type { ChatRoomsTable, RoomRow, RoomsDb } from './rooms.tables';

const columns = [
  'id',
  'title',
  'cover',
  'description',
  'modelId',
  'systemPrompt',
  'params',
  'prompts',
  'introVideo',
  'introAudio',
  'downloads',
  'budget',
  'enabled',
  'sort',
  'createdAt',
  'updatedAt',
] as const;

/** Chat rooms (Kysely only, dialect-neutral). */
export class RoomsRepository {
  constructor(private readonly db: RoomsDb) {}

  /** Every room, or only the enabled ones, in display order. */
  list(onlyEnabled: boolean): Promise<RoomRow[]> {
    let query = this.db.selectFrom('chatRooms').select(columns);
    if (onlyEnabled) query = query.where('enabled', '=', 1);
    return query.orderBy('sort').orderBy('id').execute();
  }

  find(id: number): Promise<RoomRow | undefined> {
    return this.db.selectFrom('chatRooms').select(columns).where('id', '=', id).executeTakeFirst();
  }

  async insert(row: Insertable<ChatRoomsTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('chatRooms')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async update(id: number, changes: Updateable<ChatRoomsTable>): Promise<number> {
    const result = await this.db
      .updateTable('chatRooms')
      .set(changes)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async delete(id: number): Promise<number> {
    const result = await this.db.deleteFrom('chatRooms').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async sort(ids: readonly number[], now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [index, id] of ids.entries()) {
        await trx
          .updateTable('chatRooms')
          .set({ sort: index, updatedAt: now })
          .where('id', '=', id)
          .execute();
      }
    });
  }
}
