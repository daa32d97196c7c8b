import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database, Db } from '../../db/index';

/** Table shapes of AI providers and models (migration 2026_11_21_4000_chat). */

export interface AiProvidersTable {
  id: Generated<number>;
  name: string;
  baseUrl: string;
  apiKeySealed: string;
  keyHint: string;
  createdAt: number;
  updatedAt: number;
}

export interface AiModelsTable {
  id: Generated<number>;
  providerId: number;
  name: string;
  title: string;
  vision: number;
  contextLength: number;
  /** Per million tokens, in millionths of the site's currency (migration 2026_11_30_4000). */
  promptPrice: Generated<number>;
  completionPrice: Generated<number>;
  enabled: number;
  sort: number;
  createdAt: number;
  updatedAt: number;
}

type AiTables = {
  aiProviders: AiProvidersTable;
  aiModels: AiModelsTable;
};

export type AiDb = Kysely<Database & AiTables>;

export function aiDb(db: Db): AiDb {
  return db.withTables<AiTables>();
}

export type ProviderRow = Selectable<AiProvidersTable>;
export type ModelRow = Selectable<AiModelsTable>;
