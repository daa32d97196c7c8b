import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database, Db } from '../../db/index';

/** Table shape of chat rooms (migration 2026_11_21_4000_chat). */
export interface ChatRoomsTable {
  id: Generated<number>;
  title: string;
  cover: string;
  description: string;
  modelId: number | null;
  systemPrompt: string;
  /** JSON object of generation parameters. */
  params: string;
  /** JSON list of {name, value}. */
  prompts: string;
  introVideo: string;
  introAudio: string;
  /** JSON list of file paths members may download (migration 2026_11_27_2000_room_downloads). */
  downloads: string;
  /** JSON budget shared by everyone in the room (migration 2026_11_30_4000_chat_budgets). */
  budget: Generated<string>;
  enabled: number;
  sort: number;
  createdAt: number;
  updatedAt: number;
}

type RoomsTables = { chatRooms: ChatRoomsTable };
export type RoomsDb = Kysely<Database & RoomsTables>;

export function roomsDb(db: Db): RoomsDb {
  return db.withTables<RoomsTables>();
}

export type RoomRow = Selectable<ChatRoomsTable>;
