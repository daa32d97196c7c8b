import type { DashboardStats, DayCount } from '@atrium/shared/contract/dashboard';
import type { Db } from '../../db/index';
import { DashboardRepository, type DayBucket } from './dashboard.repository';

const DAY = 86_400_000;

/** Tables of other features, counted only once their migrations have created them. */
const optionalTables = { files: 'files', rooms: 'chat_rooms', messages: 'chat_messages' } as const;

/**
 * The dashboard's numbers (DESIGN 7, rule `dashboard`). Rooms and messages belong to the chat
 * feature; until its tables exist they are null (shown as absent), never a made-up zero.
 */
export class DashboardService {
  private readonly repo: DashboardRepository;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.repo = new DashboardRepository(db);
  }

  async stats(query: { days: number; utcOffsetMinutes: number }): Promise<DashboardStats> {
    const offset = query.utcOffsetMinutes * 60_000;
    const localToday = Math.floor((this.now() + offset) / DAY) * DAY;
    const todayStart = localToday - offset;
    const start = todayStart - (query.days - 1) * DAY;
    const dates = Array.from({ length: query.days }, (_, i) =>
      new Date(localToday - (query.days - 1 - i) * DAY).toISOString().slice(0, 10),
    );

    const tables = await this.repo.existingTables(Object.values(optionalTables));
    const has = (key: keyof typeof optionalTables) => tables.has(optionalTables[key]);
    const [members, admins, storageByLibrary, uploads, signups, rooms, messagesToday] =
      await Promise.all([
        this.repo.countMembers(),
        this.repo.countAdmins(),
        has('files') ? this.repo.storageByLibrary() : Promise.resolve([]),
        has('files') ? this.repo.perDay('files', start) : Promise.resolve([]),
        this.repo.perDay('members', start),
        has('rooms') ? this.repo.countRooms() : Promise.resolve(null),
        has('messages') ? this.repo.countMessagesSince(todayStart) : Promise.resolve(null),
      ]);

    return {
      counts: {
        members,
        admins,
        files: storageByLibrary.reduce((sum, l) => sum + l.files, 0),
        storageBytes: storageByLibrary.reduce((sum, l) => sum + l.bytes, 0),
        rooms,
        messagesToday,
      },
      storageByLibrary,
      uploadsPerDay: fillDays(dates, uploads),
      signupsPerDay: fillDays(dates, signups),
    };
  }
}

/** One entry per day of the window, zero where nothing happened. */
function fillDays(dates: readonly string[], buckets: readonly DayBucket[]): DayCount[] {
  const counts = new Map(buckets.map((b) => [b.day, b.count]));
  return dates.map((date, day) => ({ date, count: counts.get(day) ?? 0 }));
}
