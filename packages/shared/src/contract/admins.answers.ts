import { z } from 'zod';
import { epochMs, id } from './paging.answers';

/** What the admin and role calls answer (DESIGN 7). */

export const roleOption = z.strictObject({ id, name: z.string() });

export const adminView = z.strictObject({
  id,
  username: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  isFounder: z.boolean(),
  disabled: z.boolean(),
  roles: z.array(roleOption),
  /** Epoch ms of the latest request of any of the admin's sessions; null when never signed in. */
  lastActiveAt: epochMs.nullable(),
  createdAt: epochMs,
  updatedAt: epochMs,
});

export const roleView = z.strictObject({
  id,
  name: z.string(),
  rules: z.array(z.string()),
  /** How many admins hold the role. */
  adminCount: z.number().int().nonnegative(),
  createdAt: epochMs,
  updatedAt: epochMs,
});
