import { z } from 'zod';
import { intField } from './fields';
import type { Library } from './files';

/** The admin dashboard (issue 8): `/admin/api/dashboard/stats`. */

export const dashboardRequest = z.strictObject({
  /** How many days the per-day charts cover, today included. */
  days: intField(7, 90).default(30),
  /** The viewer's offset from UTC in minutes (east positive), so days start at their midnight. */
  utcOffsetMinutes: intField(-840, 840).default(0),
});
export type DashboardRequest = z.input<typeof dashboardRequest>;

export interface DayCount {
  /** YYYY-MM-DD in the viewer's time zone. */
  date: string;
  count: number;
}

export interface DashboardStats {
  counts: {
    members: number;
    admins: number;
    files: number;
    storageBytes: number;
    /** Null when the product has no chat rooms yet (their tables don't exist). */
    rooms: number | null;
    messagesToday: number | null;
  };
  storageByLibrary: { library: Library; files: number; bytes: number }[];
  uploadsPerDay: DayCount[];
  signupsPerDay: DayCount[];
}
