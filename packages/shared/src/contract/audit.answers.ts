import { z } from 'zod';
import { epochMs, id } from './paging.answers';

export const auditEntry = z.strictObject({
  id,
  /** Ids are never reused, so an entry still names its admin after the account is deleted. */
  adminId: id,
  adminUsername: z.string(),
  action: z.string(),
  target: z.string(),
  /** The request body as sent, with secrets replaced by "***". */
  detail: z.string(),
  ip: z.string(),
  createdAt: epochMs,
});

export const auditOptions = z.strictObject({
  admins: z.array(z.strictObject({ id, username: z.string() })),
  actions: z.array(z.string()),
});
