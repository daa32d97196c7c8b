import { z } from 'zod';
import { intField, recordId, textField } from './fields';

/** Paging fields of every admin list call; the server clamps nothing, it refuses. */
export const pageFields = {
  page: intField(1, 1_000_000).default(1),
  pageSize: intField(1, 100).default(20),
};

/** A free-text search box: trimmed, empty means no filter. */
export const keywordField = textField().trim().max(100).default('');

/** A positive record id. */
export const idField = recordId;

export const idRequest = z.strictObject({ id: idField });
export type IdRequest = z.infer<typeof idRequest>;

/** One page of a list and where it sits. */
export interface Paged<T> {
  records: T[];
  total: number;
  page: number;
  pageSize: number;
}
