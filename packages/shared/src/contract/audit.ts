import { z } from 'zod';
import { bigIntField, textField } from './fields';
import { idField, pageFields } from './paging';

/** The audit log of admin writes (issue 8): `/admin/api/audit/...`. */

const epochMs = bigIntField(0);

export const auditListRequest = z.strictObject({
  ...pageFields,
  adminId: idField.optional(),
  /** Exact action, e.g. `admins/disable`. */
  action: textField().trim().max(200).optional(),
  /** Inclusive range of the entry time, epoch ms. */
  from: epochMs.optional(),
  to: epochMs.optional(),
});
export type AuditListRequest = z.input<typeof auditListRequest>;

export const auditOptionsRequest = z.strictObject({});

export interface AuditEntry {
  id: number;
  /** Ids are never reused, so an entry still names its admin after the account is deleted. */
  adminId: number;
  adminUsername: string;
  action: string;
  target: string;
  /** The request body as sent, with secrets replaced by "***". */
  detail: string;
  ip: string;
  createdAt: number;
}

export interface AuditOptions {
  admins: { id: number; username: string }[];
  actions: string[];
}
