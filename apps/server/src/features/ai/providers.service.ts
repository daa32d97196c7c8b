import type {
  modelSaveRequest,
  ModelOption,
  ModelRecord,
  ProviderRecord,
  providerSaveRequest,
  providerTestRequest,
  ProviderTestResponse,
} from '@atrium/shared/contract/chat';
import { fromMicros, toMicros } from '@atrium/shared/contract/chat-budget';
import { sameUrlAddress } from '@atrium/shared/contract/secret-address';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { fieldName } from '@atrium/shared/messages/catalogue';
import { ApiError, message } from '../../http/envelope';
import { aiDb, type ModelRow, type ProviderRow } from './ai.tables';
import {
  describeProviderError,
  openAiClient,
  scrubKey,
  type ProviderConnection,
} from './openai-client';
import { ProvidersRepository } from './providers.repository';
import type { SecretBox } from '../../security/secret-box';
import { resealLegacyKeys } from './legacy-keys';

/** A model ready to answer: the provider's address and key, and what the room needs to know. */
export interface ResolvedModel {
  modelId: number;
  name: string;
  title: string;
  vision: boolean;
  contextLength: number;
  /** Per million tokens, in millionths of the site's currency. */
  promptPrice: number;
  completionPrice: number;
  connection: ProviderConnection;
}

const TEST_TIMEOUT_MS = 15_000;
const MAX_LISTED_MODELS = 500;

export const Messages = {
  providerNotFound: message('ai.providerNotFound'),
  modelNotFound: message('ai.modelNotFound'),
  keyUnreadable: message('ai.keyUnreadable'),
  keyForOtherAddress: { ...message('ai.keyForOtherAddress'), field: 'apiKey' },
  baseUrl: { ...message('validation.url', { field: fieldName('baseUrl') }), field: 'baseUrl' },
} as const;

const toModel = (row: ModelRow): ModelRecord => ({
  id: row.id,
  providerId: row.providerId,
  name: row.name,
  title: row.title,
  vision: row.vision === 1,
  contextLength: row.contextLength,
  promptPrice: fromMicros(row.promptPrice),
  completionPrice: fromMicros(row.completionPrice),
  enabled: row.enabled === 1,
  sort: row.sort,
});

/** AI providers (OpenAI-compatible endpoints) and their models, managed by admins. */
export class ProvidersService {
  private readonly repo: ProvidersRepository;

  constructor(
    db: Db,
    private readonly box: SecretBox,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    /** Called after every change, so caches of resolved models can drop them. */
    private readonly onChange: () => Promise<void> = async () => undefined,
  ) {
    this.repo = new ProvidersRepository(aiDb(db));
  }

  private toProvider(row: ProviderRow, models: ModelRow[]): ProviderRecord {
    return {
      id: row.id,
      name: row.name,
      baseUrl: row.baseUrl,
      hasKey: row.apiKeySealed !== '',
      keyHint: row.keyHint,
      models: models.filter((m) => m.providerId === row.id).map(toModel),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  async list(): Promise<ProviderRecord[]> {
    const [providers, models] = await Promise.all([
      this.repo.listProviders(),
      this.repo.listModels(),
    ]);
    return providers.map((p) => this.toProvider(p, models));
  }

  private async getProvider(id: number): Promise<ProviderRow> {
    const row = await this.repo.findProvider(id);
    if (!row) throw new ApiError(Messages.providerNotFound);
    return row;
  }

  private openKey(row: ProviderRow): string {
    if (!row.apiKeySealed) return '';
    const key = this.box.open(row.apiKeySealed);
    if (key === undefined) throw new ApiError(Messages.keyUnreadable);
    return key;
  }

  /** Seals keys stored in the earlier format with today's box (once, at start-up). */
  resealLegacyKeys(secret: string): Promise<number> {
    return resealLegacyKeys(this.repo, this.box, secret);
  }

  /**
   * DESIGN 7: the stored key was given for the stored address only. A request that names another
   * address must bring its own key (an empty one sends none) instead of borrowing it.
   */
  private refuseKeyElsewhere(
    stored: ProviderRow,
    baseUrl: string,
    apiKey: string | undefined,
  ): void {
    if (apiKey === undefined && stored.apiKeySealed && !sameUrlAddress(stored.baseUrl, baseUrl)) {
      throw new ApiError(Messages.keyForOtherAddress);
    }
  }

  async save(request: z.output<typeof providerSaveRequest>): Promise<ProviderRecord> {
    const now = this.now();
    const key =
      request.apiKey === undefined
        ? {}
        : {
            apiKeySealed: request.apiKey.trim() ? this.box.seal(request.apiKey.trim()) : '',
            keyHint: keyHint(request.apiKey.trim()),
          };
    let id = request.id;
    if (id === 0) {
      id = await this.repo.insertProvider({
        name: request.name,
        baseUrl: request.baseUrl,
        apiKeySealed: '',
        keyHint: '',
        ...key,
        createdAt: now,
        updatedAt: now,
      });
    } else {
      this.refuseKeyElsewhere(await this.getProvider(id), request.baseUrl, request.apiKey);
      await this.repo.updateProvider(id, {
        name: request.name,
        baseUrl: request.baseUrl,
        ...key,
        updatedAt: now,
      });
    }
    await this.onChange();
    const [row, models] = await Promise.all([this.getProvider(id), this.repo.listModels()]);
    return this.toProvider(row, models);
  }

  /** Deleting a provider deletes its models; rooms that used them are left without a model. */
  async delete(id: number): Promise<void> {
    if ((await this.repo.deleteProvider(id)) === 0) throw new ApiError(Messages.providerNotFound);
    await this.onChange();
  }

  async saveModel(request: z.output<typeof modelSaveRequest>): Promise<ModelRecord> {
    await this.getProvider(request.providerId);
    const now = this.now();
    const values = {
      providerId: request.providerId,
      name: request.name,
      title: request.title,
      vision: request.vision ? 1 : 0,
      contextLength: request.contextLength,
      promptPrice: toMicros(request.promptPrice),
      completionPrice: toMicros(request.completionPrice),
      enabled: request.enabled ? 1 : 0,
      sort: request.sort,
      updatedAt: now,
    };
    let id = request.id;
    if (id === 0) {
      id = await this.repo.insertModel({ ...values, createdAt: now });
    } else {
      if (!(await this.repo.findModel(id))) throw new ApiError(Messages.modelNotFound);
      await this.repo.updateModel(id, values);
    }
    await this.onChange();
    const row = await this.repo.findModel(id);
    if (!row) throw new ApiError(Messages.modelNotFound);
    return toModel(row);
  }

  async deleteModel(id: number): Promise<void> {
    if ((await this.repo.deleteModel(id)) === 0) throw new ApiError(Messages.modelNotFound);
    await this.onChange();
  }

  /** Every model, for the room editor's select. */
  async modelOptions(): Promise<ModelOption[]> {
    const [providers, models] = await Promise.all([
      this.repo.listProviders(),
      this.repo.listModels(),
    ]);
    const names = new Map(providers.map((p) => [p.id, p.name]));
    return models.map((m) => ({
      id: m.id,
      title: m.title,
      name: m.name,
      providerName: names.get(m.providerId) ?? '',
      vision: m.vision === 1,
      enabled: m.enabled === 1,
    }));
  }

  /** The enabled model with its provider's connection, or undefined when it can't answer. */
  async resolve(modelId: number | null): Promise<ResolvedModel | undefined> {
    if (!modelId) return undefined;
    const model = await this.repo.findModel(modelId);
    if (!model || model.enabled !== 1) return undefined;
    const provider = await this.repo.findProvider(model.providerId);
    if (!provider) return undefined;
    return {
      modelId: model.id,
      name: model.name,
      title: model.title,
      vision: model.vision === 1,
      contextLength: model.contextLength,
      promptPrice: model.promptPrice,
      completionPrice: model.completionPrice,
      connection: { baseUrl: provider.baseUrl, apiKey: this.openKey(provider) },
    };
  }

  /**
   * Proves a provider answers: its model list, or (when it has none) a one-token completion.
   * Unsaved values from the form win over the stored ones; the stored key is used when the
   * form leaves the key field untouched, and only at the stored address.
   */
  /** The model ids a saved provider lists, with its stored key. */
  async listedModels(id: number): Promise<string[]> {
    const stored = await this.getProvider(id);
    const apiKey = this.openKey(stored);
    const client = openAiClient({ baseUrl: stored.baseUrl, apiKey }, TEST_TIMEOUT_MS);
    try {
      const page = await client.models.list();
      return page.data
        .map((m) => m.id)
        .sort((a, b) => a.localeCompare(b))
        .slice(0, MAX_LISTED_MODELS);
    } catch (error) {
      throw new ApiError(
        message('ai.modelsNotListed', { reason: describeProviderError(error, apiKey, false) }),
      );
    }
  }

  async test(request: z.output<typeof providerTestRequest>): Promise<ProviderTestResponse> {
    const stored = request.id > 0 ? await this.getProvider(request.id) : undefined;
    const baseUrl = (request.baseUrl || stored?.baseUrl || '').replace(/\/+$/, '');
    if (!/^https?:\/\/[^/\s]+/i.test(baseUrl) || !URL.canParse(baseUrl)) {
      throw new ApiError(Messages.baseUrl);
    }
    if (stored) this.refuseKeyElsewhere(stored, baseUrl, request.apiKey);
    const apiKey =
      request.apiKey !== undefined ? request.apiKey.trim() : stored ? this.openKey(stored) : '';
    const client = openAiClient({ baseUrl, apiKey }, TEST_TIMEOUT_MS);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const page = await client.models.list();
      const models = page.data.map((m) => m.id).slice(0, MAX_LISTED_MODELS);
      return { method: 'models', models, latencyMs: elapsed() };
    } catch (listError) {
      const model = request.model?.trim();
      if (!model) {
        throw new ApiError(
          message('ai.connectionFailed', {
            reason: describeProviderError(listError, apiKey, false),
          }),
        );
      }
      try {
        await client.chat.completions.create({
          model,
          messages: [{ role: 'user', content: 'ping' }],
          max_completion_tokens: 1,
        });
        return { method: 'completion', models: [model], latencyMs: elapsed() };
      } catch (error) {
        this.log.info(
          { provider: stored?.id, reason: scrubKey(String(error), apiKey) },
          'provider test failed',
        );
        throw new ApiError(
          message('ai.connectionFailed', { reason: describeProviderError(error, apiKey, false) }),
        );
      }
    }
  }
}

/** What an admin sees of a key: its last four characters behind a mask, for long keys only. */
function keyHint(key: string): string {
  if (!key) return '';
  return key.length >= 16 ? `••••${key.slice(-4)}` : '••••';
}
