import type { AreaName } from '@atrium/shared/areas';
import type { Generated, Selectable } from 'kysely';

/**
 * Table shapes as the code sees them through CamelCasePlugin (columns are snake_case in SQL).
 * Timestamps are epoch milliseconds; flags are 0/1 integers so SQLite and PostgreSQL agree.
 */

interface AdminsTable {
  id: Generated<number>;
  username: string;
  passwordHash: string;
  nickname: string;
  avatar: string;
  isFounder: number;
  disabled: number;
  createdAt: number;
  updatedAt: number;
}

interface RolesTable {
  id: Generated<number>;
  name: string;
  /** JSON array of rule patterns. */
  rules: string;
  createdAt: number;
  updatedAt: number;
}

interface AdminRolesTable {
  adminId: number;
  roleId: number;
}

interface MembersTable {
  id: Generated<number>;
  username: string;
  email: string | null;
  phone: string | null;
  passwordHash: string;
  nickname: string;
  avatar: string;
  disabled: number;
  /** The language the member reads ('zh-CN' | 'en'); null until set at registration or sign-in. */
  lang: string | null;
  createdAt: number;
  updatedAt: number;
}

export type SubjectType = AreaName;

interface SessionsTable {
  id: Generated<number>;
  subjectType: SubjectType;
  subjectId: number;
  tokenHash: string;
  /** The hash of the token replaced at `rotatedAt`, still accepted for a short grace period. */
  prevTokenHash: string | null;
  /** When the current token was issued (creation or last rotation). */
  rotatedAt: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
  revokedAt: number | null;
}

interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updatedAt: number;
}

interface InstancesTable {
  id: string;
  startedAt: number;
  heartbeatAt: number;
}

export interface Database {
  instances: InstancesTable;
  admins: AdminsTable;
  roles: RolesTable;
  adminRoles: AdminRolesTable;
  members: MembersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
}

export type AdminRow = Selectable<AdminsTable>;
export type RoleRow = Selectable<RolesTable>;
export type MemberRow = Selectable<MembersTable>;
export type SessionRow = Selectable<SessionsTable>;
