import { z } from 'zod';
import { bigIntField, textField } from './fields';
import { auditEntry, auditOptions } from './audit.answers';
import { defineCalls } from './call';
import { idField, pageFields } from './paging';
import { pagedAnswer } from './paging.answers';

/** The audit log of admin writes (DESIGN 7): `/admin/api/audit/...`. */

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

export type AuditEntry = z.infer<typeof auditEntry>;
export type AuditOptions = z.infer<typeof auditOptions>;

export const auditRule = 'system/audit';

export const auditCalls = defineCalls('admin', {
  'audit/list': { rule: auditRule, request: auditListRequest, answer: pagedAnswer(auditEntry) },
  'audit/options': { rule: auditRule, request: auditOptionsRequest, answer: auditOptions },
});
