import { z } from 'zod';
import { intField } from './fields';
import { defineCalls } from './call';
import { dashboardStats, type dayCount } from './dashboard.answers';

/** The admin dashboard: `/admin/api/dashboard/stats`. */

export const dashboardRequest = z.strictObject({
  /** How many days the per-day charts cover, today included. */
  days: intField(7, 90).default(30),
  /** The viewer's offset from UTC in minutes (east positive), so days start at their midnight. */
  utcOffsetMinutes: intField(-840, 840).default(0),
});
export type DashboardRequest = z.input<typeof dashboardRequest>;

export type DayCount = z.infer<typeof dayCount>;
export type DashboardStats = z.infer<typeof dashboardStats>;

export const dashboardRule = 'dashboard';

export const dashboardCalls = defineCalls('admin', {
  'dashboard/stats': { rule: dashboardRule, request: dashboardRequest, answer: dashboardStats },
});
