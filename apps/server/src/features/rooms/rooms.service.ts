import { createHash } from 'node:crypto';
import {
  generationParams,
  suggestedPrompt,
  type AdminRoomRecord,
  type GenerationParams,
  type ModelOption,
  type roomSaveRequest,
  type RoomRecord,
  type SuggestedPrompt,
} from '@atrium/shared/contract/chat';
import { chatBudget, noBudget, type ChatBudget } from '@atrium/shared/contract/chat-budget';
import { z } from 'zod';
import type { Db } from '../../db/index';
import { ApiError, message } from '../../http/envelope';
import { roomHeldPaths, roomRefKinds } from '@atrium/shared/file-refs';
import { holdFiles, releaseConversationFiles } from '../library/index';
import { RoomsRepository } from './rooms.repository';
import { roomsDb, type RoomRow } from './rooms.tables';
import { sanitizeRichText } from '../../security/sanitize-html';

export const ROOMS_LAZY_KEY = 'Rooms';

const Messages = {
  roomNotFound: message('rooms.notFound'),
  modelNotFound: { ...message('rooms.modelNotFound'), field: 'modelId' },
} as const;

/** What rooms need to know of models; the AI feature answers it. */
export interface ModelCatalog {
  modelOptions(): Promise<ModelOption[]>;
}

const promptList = z.array(suggestedPrompt);
const pathList = z.array(z.string());

function parseJson<T>(text: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export const roomParams = (row: RoomRow): GenerationParams =>
  parseJson(row.params, generationParams, {});
const roomPrompts = (row: RoomRow): SuggestedPrompt[] => parseJson(row.prompts, promptList, []);
const roomDownloads = (row: RoomRow): string[] => parseJson(row.downloads, pathList, []);
/** The room's own budget, as admins entered it (costs in the site's currency). */
export const roomBudget = (row: RoomRow): ChatBudget => parseJson(row.budget, chatBudget, noBudget);

/** Rooms as admins manage them and members see them (DESIGN 8). */
export class RoomsService {
  private readonly repo: RoomsRepository;

  constructor(
    private readonly db: Db,
    private readonly models: ModelCatalog,
    private readonly now: () => number,
    /** Called after every change, so caches of rooms can drop them. */
    private readonly onChange: () => Promise<void> = async () => undefined,
  ) {
    this.repo = new RoomsRepository(roomsDb(db));
  }

  private async modelMap(): Promise<Map<number, ModelOption>> {
    return new Map((await this.models.modelOptions()).map((m) => [m.id, m]));
  }

  private toAdmin(row: RoomRow, models: Map<number, ModelOption>): AdminRoomRecord {
    return {
      id: row.id,
      title: row.title,
      cover: row.cover,
      description: row.description,
      modelId: row.modelId ?? 0,
      modelTitle: row.modelId ? (models.get(row.modelId)?.title ?? '') : '',
      systemPrompt: row.systemPrompt,
      params: roomParams(row),
      prompts: roomPrompts(row),
      introVideo: row.introVideo,
      introAudio: row.introAudio,
      downloads: roomDownloads(row),
      budget: roomBudget(row),
      enabled: row.enabled === 1,
      sort: row.sort,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  private toMember(row: RoomRow, models: Map<number, ModelOption>): RoomRecord {
    const model = row.modelId ? models.get(row.modelId) : undefined;
    return {
      id: row.id,
      title: row.title,
      cover: row.cover,
      description: row.description,
      prompts: roomPrompts(row),
      introVideo: row.introVideo,
      introAudio: row.introAudio,
      downloads: roomDownloads(row),
      sort: row.sort,
      model: model?.enabled ? { title: model.title, vision: model.vision } : null,
    };
  }

  async adminList(): Promise<AdminRoomRecord[]> {
    const [rows, models] = await Promise.all([this.repo.list(false), this.modelMap()]);
    return rows.map((row) => this.toAdmin(row, models));
  }

  /** The "Rooms" lazy data set: enabled rooms in display order (SPEC 7.4). */
  async memberList(): Promise<RoomRecord[]> {
    const [rows, models] = await Promise.all([this.repo.list(true), this.modelMap()]);
    return rows.map((row) => this.toMember(row, models));
  }

  /** Changes whenever anything a member sees of any room changes (hashLazyValue.Rooms). */
  async hash(): Promise<string> {
    const rooms = await this.memberList();
    return createHash('sha256').update(JSON.stringify(rooms)).digest('hex').slice(0, 16);
  }

  async memberGet(id: number): Promise<RoomRecord> {
    const row = await this.repo.find(id);
    if (!row || row.enabled !== 1) throw new ApiError(Messages.roomNotFound);
    return this.toMember(row, await this.modelMap());
  }

  /** The room row for chat: undefined when missing or disabled. */
  async findEnabled(id: number): Promise<RoomRow | undefined> {
    const row = await this.repo.find(id);
    return row && row.enabled === 1 ? row : undefined;
  }

  async save(request: z.output<typeof roomSaveRequest>): Promise<AdminRoomRecord> {
    const models = await this.modelMap();
    if (request.modelId !== 0 && !models.has(request.modelId))
      throw new ApiError(Messages.modelNotFound);
    const now = this.now();
    const values = {
      title: request.title,
      cover: request.cover.trim(),
      description: sanitizeRichText(request.description),
      modelId: request.modelId === 0 ? null : request.modelId,
      systemPrompt: request.systemPrompt,
      params: JSON.stringify(request.params),
      prompts: JSON.stringify(
        request.prompts
          .map((p) => ({ name: p.name.trim(), value: p.value.trim() }))
          .filter((p) => p.value !== ''),
      ),
      introVideo: request.introVideo.trim(),
      introAudio: request.introAudio.trim(),
      downloads: JSON.stringify(request.downloads),
      budget: JSON.stringify(request.budget),
      enabled: request.enabled ? 1 : 0,
      sort: request.sort,
      updatedAt: now,
    };
    // The room and the files it uses are written together (issue 17's usage graph).
    const id = await this.db.transaction().execute(async (trx) => {
      const repo = new RoomsRepository(roomsDb(trx));
      let id = request.id;
      if (id === 0) id = await repo.insert({ ...values, createdAt: now });
      else if ((await repo.update(id, values)) === 0) throw new ApiError(Messages.roomNotFound);
      const held = roomHeldPaths({ ...values, downloads: request.downloads });
      await holdFiles(trx, { kinds: roomRefKinds, holderId: id, memberId: null }, held);
      return id;
    });
    await this.onChange();
    const row = await this.repo.find(id);
    if (!row) throw new ApiError(Messages.roomNotFound);
    return this.toAdmin(row, models);
  }

  async setEnabled(id: number, enabled: boolean): Promise<void> {
    const changed = await this.repo.update(id, { enabled: enabled ? 1 : 0, updatedAt: this.now() });
    if (changed === 0) throw new ApiError(Messages.roomNotFound);
    await this.onChange();
  }

  async sort(ids: readonly number[]): Promise<void> {
    await this.repo.sort(ids, this.now());
    await this.onChange();
  }

  /** Deletes the room with its conversations and messages; usage records stay. */
  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const conversations = await trx
        .withTables<{ chatConversations: { id: number; roomId: number } }>()
        .selectFrom('chatConversations')
        .select('id')
        .where('roomId', '=', id)
        .execute();
      await releaseConversationFiles(
        trx,
        conversations.map((row) => row.id),
      );
      await holdFiles(trx, { kinds: roomRefKinds, holderId: id, memberId: null }, []);
      if ((await new RoomsRepository(roomsDb(trx)).delete(id)) === 0)
        throw new ApiError(Messages.roomNotFound);
    });
    await this.onChange();
  }
}
