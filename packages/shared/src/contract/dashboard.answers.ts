import { z } from 'zod';
import { librarySchema } from './files';

const count = z.number().int().nonnegative();

export const dayCount = z.strictObject({
  /** YYYY-MM-DD in the viewer's time zone. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  count,
});

export const dashboardStats = z.strictObject({
  counts: z.strictObject({
    members: count,
    admins: count,
    files: count,
    storageBytes: count,
    rooms: count.nullable(),
    messagesToday: count.nullable(),
  }),
  storageByLibrary: z.array(z.strictObject({ library: librarySchema, files: count, bytes: count })),
  uploadsPerDay: z.array(dayCount),
  signupsPerDay: z.array(dayCount),
});
