import type { AdminView, RoleOption } from '@atrium/shared/contract/admins';
import type { Paged } from '@atrium/shared/contract/paging';
import { coversRules } from '@atrium/shared/role-rules';
import type { Db } from '../../db/index';
import { ApiError } from '../../http/envelope';
import type { AdminPrincipal } from '../../http/principal';
import { hashPassword } from '../../security/passwords';
import { AdminsRepository, type Admin } from './admins.repository';
import type { AdminsService } from './admins.service';
import { RolesRepository, type Role } from '../roles/index';

export interface AdminFields {
  nickname: string;
  roleIds: readonly number[];
}

/**
 * Admin management (DESIGN 7, rule `system/admin`). Nobody disables or deletes themselves or the
 * founder, and an admin only manages accounts and hands out roles within their own rules, so
 * `system/admin` alone can't be turned into more power.
 */
export class AdminAccountsService {
  private readonly admins: AdminsRepository;
  private readonly roles: RolesRepository;

  constructor(
    private readonly db: Db,
    private readonly accounts: AdminsService,
    private readonly now: () => number,
  ) {
    this.admins = new AdminsRepository(db);
    this.roles = new RolesRepository(db);
  }

  async list(query: {
    page: number;
    pageSize: number;
    keyword: string;
  }): Promise<Paged<AdminView>> {
    const { records, total } = await this.admins.page(
      query.keyword,
      (query.page - 1) * query.pageSize,
      query.pageSize,
    );
    return {
      records: await this.views(records),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async roleOptions(): Promise<RoleOption[]> {
    return (await this.roles.list()).map(({ id, name }) => ({ id, name }));
  }

  async create(
    actor: AdminPrincipal,
    input: { username: string; password: string } & AdminFields,
  ): Promise<AdminView> {
    const roleIds = await this.grantableRoles(actor, input.roleIds);
    const admin = await this.accounts.create({
      username: input.username,
      password: input.password,
      nickname: input.nickname || input.username,
      roleIds,
    });
    return this.view(admin);
  }

  async edit(actor: AdminPrincipal, id: number, input: AdminFields): Promise<AdminView> {
    const target = await this.manageable(actor, id);
    if (target.isFounder && input.roleIds.length > 0) {
      throw new ApiError('The founder holds every rule; roles would change nothing');
    }
    const roleIds = await this.grantableRoles(actor, input.roleIds);
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      const admins = new AdminsRepository(trx);
      await admins.setNickname(id, input.nickname || target.username, now);
      await admins.setRoles(id, roleIds);
    });
    return this.view(await this.found(id));
  }

  async setDisabled(actor: AdminPrincipal, id: number, disabled: boolean): Promise<AdminView> {
    const target = await this.manageable(actor, id);
    if (disabled) this.refuseSelfOrFounder(actor, target, 'disable');
    const now = this.now();
    await this.admins.setDisabled(id, disabled, now);
    // The principal lookup refuses a disabled account already; revoking also ends the sessions
    // for good, so enabling the account later does not bring them back.
    if (disabled) await this.admins.revokeSessions(id, now);
    return this.view(await this.found(id));
  }

  async resetPassword(actor: AdminPrincipal, id: number, password: string): Promise<void> {
    const target = await this.manageable(actor, id);
    const now = this.now();
    await this.admins.setPasswordHash(id, await hashPassword(password), now);
    await this.admins.revokeSessions(id, now, target.id === actor.id ? actor.sessionId : undefined);
  }

  async delete(actor: AdminPrincipal, id: number): Promise<void> {
    const target = await this.manageable(actor, id);
    this.refuseSelfOrFounder(actor, target, 'delete');
    await this.admins.revokeSessions(id, this.now());
    await this.admins.delete(id);
  }

  private refuseSelfOrFounder(actor: AdminPrincipal, target: Admin, verb: string): void {
    if (target.id === actor.id) throw new ApiError(`You can't ${verb} your own account`);
    if (target.isFounder)
      throw new ApiError(`The founder account ${target.username} can't be ${verb}d`);
  }

  private async found(id: number): Promise<Admin> {
    const admin = await this.admins.findById(id);
    if (!admin) throw new ApiError(`id: admin ${id} does not exist`);
    return admin;
  }

  /** The target, when the actor's rules reach every rule the target holds. */
  private async manageable(actor: AdminPrincipal, id: number): Promise<Admin> {
    const target = await this.found(id);
    if (target.id === actor.id) return target;
    if (target.isFounder && !actor.isFounder) {
      throw new ApiError(`Only the founder can change the founder account ${target.username}`);
    }
    if (!coversRules(actor.rules, await this.accounts.rulesOf(target))) {
      throw new ApiError(`${target.username} holds rules you don't hold, so you can't manage them`);
    }
    return target;
  }

  /** The roles, when they exist and the actor holds every rule in them. */
  private async grantableRoles(actor: AdminPrincipal, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const roles = await this.roles.findByIds(unique);
    const missing = unique.filter((id) => !roles.some((r) => r.id === id));
    if (missing.length > 0)
      throw new ApiError(`roleIds: role ${missing.join(', ')} does not exist`);
    const beyond = roles.filter((role: Role) => !coversRules(actor.rules, role.rules));
    if (beyond.length > 0) {
      throw new ApiError(
        `roleIds: ${beyond.map((r) => r.name).join(', ')} holds rules you don't hold yourself`,
      );
    }
    return unique;
  }

  private async view(admin: Admin): Promise<AdminView> {
    const [view] = await this.views([admin]);
    if (!view) throw new Error('an admin view went missing');
    return view;
  }

  private async views(admins: readonly Admin[]): Promise<AdminView[]> {
    const ids = admins.map((a) => a.id);
    const [roles, lastActive] = await Promise.all([
      this.admins.rolesOf(ids),
      this.admins.lastActive(ids),
    ]);
    return admins.map((a) => ({
      id: a.id,
      username: a.username,
      nickname: a.nickname,
      avatar: a.avatar,
      isFounder: a.isFounder,
      disabled: a.disabled,
      roles: roles.get(a.id) ?? [],
      lastActiveAt: lastActive.get(a.id) ?? null,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
    }));
  }
}
