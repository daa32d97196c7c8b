import { z } from 'zod';

/** Paging fields of every admin list call; the server clamps nothing, it refuses. */
export const pageFields = {
  page: z.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
};

/** A free-text search box: trimmed, empty means no filter. */
export const keywordField = z.string().trim().max(100).default('');

/** A positive record id. */
export const idField = z.number().int().positive();

export const idRequest = z.strictObject({ id: idField });
export type IdRequest = z.infer<typeof idRequest>;

/** One page of a list and where it sits. */
export interface Paged<T> {
  records: T[];
  total: number;
  page: number;
  pageSize: number;
}
