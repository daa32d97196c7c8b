/**
 * The window of the dashboard's per-day charts, worked out once for both (issue 28: the uploads
 * chart ended its labels on 10-30 and the sign-ups chart on 10-29, each axis thinning its own
 * labels). Both charts take their first and last day and their labelled days from here.
 */
export interface DayWindow {
  /** First and last day of the window, as the axis shows them ("10-01", "10-30"). */
  first: string;
  last: string;
  /** The dates ("2026-10-30") the axis labels: the last day always, then every `step` days back. */
  ticks: string[];
}

/** "2026-10-30" → "10-30" */
export const shortDate = (date: string) => date.slice(5);

/** At most `maxLabels` labelled days, evenly spaced, counted back from the last day. */
export function dayWindow(dates: readonly string[], maxLabels = 6): DayWindow {
  const n = dates.length;
  const step = n <= 1 ? 1 : Math.max(1, Math.ceil((n - 1) / Math.max(1, maxLabels - 1)));
  const ticks: string[] = [];
  for (let i = n - 1; i >= 0; i -= step) ticks.unshift(dates[i] ?? '');
  return {
    first: shortDate(dates[0] ?? ''),
    last: shortDate(dates[n - 1] ?? ''),
    ticks,
  };
}
