import { z, type ZodType } from 'zod';

/** One page of a list and where it sits. */
export function pagedAnswer<T extends ZodType>(record: T) {
  return z.strictObject({
    records: z.array(record),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  });
}

/** Epoch milliseconds. */
export const epochMs = z.number().int().nonnegative();
export const id = z.number().int().positive();
