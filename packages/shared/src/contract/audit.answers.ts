import { z } from 'zod';
import { epochMs, id } from './paging.answers';

export const auditEntry = z.strictObject({
  id,
  /** Ids are never reused, so an entry still names its admin after the account is deleted. */
  adminId: id,
  adminUsername: z.string(),
  /** The route, e.g. `data/file_manager/image:fileDelete` (what `audit/list` filters by). */
  action: z.string(),
  /** The action as a phrase in the request's language, e.g. "删除文件 · 图片库". */
  actionText: z.string(),
  target: z.string(),
  /** The request body as sent, with secrets replaced by "***". */
  detail: z.string(),
  ip: z.string(),
  createdAt: epochMs,
});

export const auditOptions = z.strictObject({
  admins: z.array(z.strictObject({ id, username: z.string() })),
  /** Each action the log holds, with its phrase in the request's language. */
  actions: z.array(z.strictObject({ action: z.string(), text: z.string() })),
});
