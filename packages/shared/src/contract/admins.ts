import { z } from 'zod';
import { textField } from './fields';
import { adminView, roleOption, roleView } from './admins.answers';
import { AccountLimits } from './accounts-rules';
import { defineCalls } from './call';
import { idField, idRequest, keywordField, pageFields } from './paging';
import { pagedAnswer } from './paging.answers';

/** Admin accounts and roles (DESIGN 7): the calls under `/admin/api/admins/...` and `roles/...`. */

export const accountUsername = textField()
  .trim()
  .regex(/^[\w.@-]{1,64}$/, 'admin.usernameRule');

/** Custom messages here are catalogue keys (issue 27); the limits speak through `validation.*`. */
export const newPassword = textField()
  .min(AccountLimits.passwordMinLength)
  .max(AccountLimits.passwordMaxLength);

export const nicknameField = textField().trim().max(64);

const roleIds = z.array(idField).max(50);

export const adminListRequest = z.strictObject({ ...pageFields, keyword: keywordField });
export type AdminListRequest = z.input<typeof adminListRequest>;

export const adminCreateRequest = z.strictObject({
  username: accountUsername,
  password: newPassword,
  nickname: nicknameField.default(''),
  roleIds: roleIds.default([]),
});
export type AdminCreateRequest = z.input<typeof adminCreateRequest>;

export const adminEditRequest = z.strictObject({
  id: idField,
  nickname: nicknameField,
  roleIds,
});
export type AdminEditRequest = z.input<typeof adminEditRequest>;

export const adminPasswordRequest = z.strictObject({ id: idField, password: newPassword });
export type AdminPasswordRequest = z.input<typeof adminPasswordRequest>;

export type RoleOption = z.infer<typeof roleOption>;
export type AdminView = z.infer<typeof adminView>;

/**
 * A rule pattern (SPEC 6): `*` matches any run of characters, everything else is literal. The
 * character set keeps patterns readable and free of whitespace.
 */
export const ruleText = textField()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_*/.:-]+$/, 'admin.ruleRule');

export const roleName = textField().trim().min(1).max(64);

const ruleList = z.array(ruleText).max(200);

export const roleListRequest = z.strictObject({});

export const roleCreateRequest = z.strictObject({ name: roleName, rules: ruleList });
export type RoleCreateRequest = z.input<typeof roleCreateRequest>;

export const roleEditRequest = z.strictObject({ id: idField, name: roleName, rules: ruleList });
export type RoleEditRequest = z.input<typeof roleEditRequest>;

export type RoleView = z.infer<typeof roleView>;

export const adminsRule = 'system/admin';
export const rolesRule = 'system/role';

export const adminsCalls = defineCalls('admin', {
  'admins/list': { rule: adminsRule, request: adminListRequest, answer: pagedAnswer(adminView) },
  /** The roles an administrator can be given (readable with `system/admin` alone). */
  'admins/options': {
    rule: adminsRule,
    request: z.strictObject({}),
    answer: z.strictObject({ roles: z.array(roleOption) }),
  },
  'admins/create': { rule: adminsRule, request: adminCreateRequest, answer: adminView },
  'admins/edit': { rule: adminsRule, request: adminEditRequest, answer: adminView },
  'admins/disable': { rule: adminsRule, request: idRequest, answer: adminView },
  'admins/enable': { rule: adminsRule, request: idRequest, answer: adminView },
  'admins/reset_password': { rule: adminsRule, request: adminPasswordRequest, answer: z.null() },
  'admins/delete': { rule: adminsRule, request: idRequest, answer: z.null() },
});

export const rolesCalls = defineCalls('admin', {
  'roles/list': {
    rule: rolesRule,
    request: roleListRequest,
    answer: z.strictObject({ records: z.array(roleView) }),
  },
  'roles/create': { rule: rolesRule, request: roleCreateRequest, answer: roleView },
  'roles/edit': { rule: rolesRule, request: roleEditRequest, answer: roleView },
  'roles/delete': { rule: rolesRule, request: idRequest, answer: z.null() },
});
