import { z } from 'zod';
import { textField } from './fields';
import { idField, keywordField, pageFields } from './paging';

/** Admin accounts and roles (issue 8, DESIGN 7): the calls under `/admin/api/admins/...` and `roles/...`. */

export const accountUsername = textField()
  .trim()
  .regex(/^[\w.@-]{1,64}$/, 'use 1-64 letters, digits, _ . @ or -');

export const newPassword = textField()
  .min(8, 'must be at least 8 characters')
  .max(200, 'at most 200 characters');

export const nicknameField = textField().trim().max(64, 'at most 64 characters');

const roleIds = z.array(idField).max(50, 'at most 50 roles');

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

export interface RoleOption {
  id: number;
  name: string;
}

export interface AdminView {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  isFounder: boolean;
  disabled: boolean;
  roles: RoleOption[];
  /** Epoch ms of the latest request of any of the admin's sessions; null when never signed in. */
  lastActiveAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * A rule pattern (SPEC 6): `*` matches any run of characters, everything else is literal. The
 * character set keeps patterns readable and free of whitespace.
 */
export const ruleText = textField()
  .trim()
  .min(1, 'a rule cannot be empty')
  .max(200, 'a rule is at most 200 characters')
  .regex(/^[A-Za-z0-9_*/.:-]+$/, 'use letters, digits, _ / . : - and the * wildcard');

export const roleName = textField().trim().min(1, 'is required').max(64, 'at most 64 characters');

const ruleList = z.array(ruleText).max(200, 'at most 200 rules');

export const roleListRequest = z.strictObject({});

export const roleCreateRequest = z.strictObject({ name: roleName, rules: ruleList });
export type RoleCreateRequest = z.input<typeof roleCreateRequest>;

export const roleEditRequest = z.strictObject({ id: idField, name: roleName, rules: ruleList });
export type RoleEditRequest = z.input<typeof roleEditRequest>;

export interface RoleView {
  id: number;
  name: string;
  rules: string[];
  /** How many admins hold the role. */
  adminCount: number;
  createdAt: number;
  updatedAt: number;
}
