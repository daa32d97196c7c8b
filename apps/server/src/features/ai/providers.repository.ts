import type { Insertable, Updateable } from 'kysely';
import type { AiDb, AiModelsTable, AiProvidersTable, ModelRow, ProviderRow } from './ai.tables';

const providerColumns = [
  'id',
  'name',
  'baseUrl',
  'apiKeySealed',
  'keyHint',
  'createdAt',
  'updatedAt',
] as const;

const modelColumns = [
  'id',
  'providerId',
  'name',
  'title',
  'vision',
  'contextLength',
  'promptPrice',
  'completionPrice',
  'enabled',
  'sort',
  'createdAt',
  'updatedAt',
] as const;

/** Providers and their models (Kysely only, dialect-neutral). */
export class ProvidersRepository {
  constructor(private readonly db: AiDb) {}

  listProviders(): Promise<ProviderRow[]> {
    return this.db.selectFrom('aiProviders').select(providerColumns).orderBy('id').execute();
  }

  findProvider(id: number): Promise<ProviderRow | undefined> {
    return this.db
      .selectFrom('aiProviders')
      .select(providerColumns)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insertProvider(row: Insertable<AiProvidersTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('aiProviders')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async updateProvider(id: number, changes: Updateable<AiProvidersTable>): Promise<void> {
    await this.db.updateTable('aiProviders').set(changes).where('id', '=', id).execute();
  }

  async deleteProvider(id: number): Promise<number> {
    const result = await this.db.deleteFrom('aiProviders').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  listModels(): Promise<ModelRow[]> {
    return this.db
      .selectFrom('aiModels')
      .select(modelColumns)
      .orderBy('sort')
      .orderBy('id')
      .execute();
  }

  findModel(id: number): Promise<ModelRow | undefined> {
    return this.db
      .selectFrom('aiModels')
      .select(modelColumns)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insertModel(row: Insertable<AiModelsTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('aiModels')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async updateModel(id: number, changes: Updateable<AiModelsTable>): Promise<void> {
    await this.db.updateTable('aiModels').set(changes).where('id', '=', id).execute();
  }

  async deleteModel(id: number): Promise<number> {
    const result = await this.db.deleteFrom('aiModels').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
