import type { FileRow } from './library.tables';

/** How many of these files each category holds: what a move, delete or restore changes. */
export function countByCategory(rows: readonly FileRow[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(row.categoryId, (counts.get(row.categoryId) ?? 0) + 1);
  return counts;
}
