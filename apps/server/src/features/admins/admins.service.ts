import type { Db } from '../../db/index';
import { fieldName } from '@atrium/shared/messages/catalogue';
import { AccountLimits } from '@atrium/shared/contract/accounts-rules';
import { ApiError, message } from '../../http/envelope';
import type { AdminPrincipal } from '../../http/principal';
import { generatePassword, hashPassword } from '../../security/passwords';
import { AdminsRepository, type Admin } from './admins.repository';
import { parseRules, RolesRepository } from '../roles/index';

export const FOUNDER_USERNAME = 'admin';

export interface CreateAdminInput {
  username: string;
  password: string;
  nickname?: string;
  isFounder?: boolean;
  /** When given, a role named after the admin holding these rules is created and linked. */
  rules?: string[];
  /** Existing roles to link. */
  roleIds?: readonly number[];
}

export class AdminsService {
  private readonly admins: AdminsRepository;
  private readonly roles: RolesRepository;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.admins = new AdminsRepository(db);
    this.roles = new RolesRepository(db);
  }

  findByUsername(username: string): Promise<Admin | undefined> {
    return this.admins.findByUsername(username);
  }

  async create(input: CreateAdminInput): Promise<Admin> {
    const username = input.username.trim();
    if (!/^[\w.@-]{1,64}$/.test(username)) {
      throw new ApiError({
        ...message('admin.usernameRule', { field: fieldName('username') }),
        field: 'username',
      });
    }
    const min = AccountLimits.passwordMinLength;
    if (input.password.length < min) {
      throw new ApiError({
        ...message('validation.tooShort', { field: fieldName('password'), min }),
        field: 'password',
      });
    }
    if (await this.admins.findByUsername(username)) {
      // The one wording of a taken username, as members' sign-up and the members page say it.
      throw new ApiError({
        ...message('account.usernameTaken', { field: message('field.username'), username }),
        field: 'username',
      });
    }
    if (input.rules && (await this.roles.findByName(username))) {
      throw new ApiError(message('admin.roleNameTaken', { name: username }));
    }
    const passwordHash = await hashPassword(input.password);
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const admins = new AdminsRepository(trx);
      const admin = await admins.create({
        username,
        passwordHash,
        nickname: input.nickname ?? username,
        isFounder: input.isFounder ?? false,
        now,
      });
      if (input.rules) {
        const role = await new RolesRepository(trx).create({
          name: username,
          rules: input.rules,
          now,
        });
        await admins.addRole(admin.id, role.id);
      }
      for (const roleId of input.roleIds ?? []) await admins.addRole(admin.id, roleId);
      return admin;
    });
  }

  /**
   * Creates the founder account `admin` (holding every rule) unless one exists. The password is
   * ATRIUM_ADMIN_PASSWORD or a generated one, which the caller shows exactly once. `start` calls
   * it under the start-up lock: instances starting together would otherwise all find no founder
   * and race to insert one.
   */
  async ensureFounder(
    configuredPassword: string | undefined,
  ): Promise<{ created: false } | { created: true; password: string; generated: boolean }> {
    if (await this.admins.hasFounder()) return { created: false };
    const password = configuredPassword ?? generatePassword();
    await this.create({
      username: FOUNDER_USERNAME,
      password,
      isFounder: true,
      nickname: 'Administrator',
    });
    return { created: true, password, generated: configuredPassword === undefined };
  }

  /** The union of the admin's roles' rules; the founder holds every rule. */
  async rulesOf(admin: Pick<Admin, 'id' | 'isFounder'>): Promise<string[]> {
    if (admin.isFounder) return ['*'];
    const lists = await this.admins.roleRules(admin.id);
    return [...new Set(lists.flatMap(parseRules))];
  }

  /** The principal for a signed-in admin, or undefined when the account is gone or disabled. */
  async principal(adminId: number, sessionId: number): Promise<AdminPrincipal | undefined> {
    const admin = await this.admins.findById(adminId);
    if (!admin || admin.disabled) return undefined;
    return {
      id: admin.id,
      username: admin.username,
      nickname: admin.nickname,
      avatar: admin.avatar,
      isFounder: admin.isFounder,
      rules: await this.rulesOf(admin),
      sessionId,
    };
  }
}
