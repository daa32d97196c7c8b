import { z } from 'zod';
import { epochMs, id } from './paging.answers';

const count = z.number().int().nonnegative();

export const memberView = z.strictObject({
  id,
  username: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  nickname: z.string(),
  avatar: z.string(),
  disabled: z.boolean(),
  lastActiveAt: epochMs.nullable(),
  createdAt: epochMs,
  updatedAt: epochMs,
});

export const storageUse = z.strictObject({ files: count, bytes: count });

export const memberDetail = memberView.extend({
  /** The member's own file library: totals and per library. */
  storage: storageUse.extend({
    libraries: z.strictObject({
      image: storageUse,
      file: storageUse,
      video: storageUse,
      audio: storageUse,
    }),
  }),
});
