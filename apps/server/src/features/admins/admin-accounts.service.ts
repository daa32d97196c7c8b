import type { AdminView, RoleOption } from '@atrium/shared/contract/admins';
import type { Paged } from '@atrium/shared/contract/paging';
import { coversRules } from '@atrium/shared/role-rules';
import type { Db } from '../../db/index';
import { ApiError, message } from '../../http/envelope';
import type { AdminPrincipal, PrincipalChanges } from '../../http/principal';
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
    /** Told of every change to an account, so no instance answers for the old one. */
    private readonly principals: PrincipalChanges,
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
      throw new ApiError({ ...message('admin.founderHoldsEveryRule'), field: 'roleIds' });
    }
    const roleIds = await this.grantableRoles(actor, input.roleIds);
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      const admins = new AdminsRepository(trx);
      await admins.setNickname(id, input.nickname || target.username, now);
      await admins.setRoles(id, roleIds);
    });
    await this.principals.subject('admin', id);
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
    await this.principals.subject('admin', id);
    return this.view(await this.found(id));
  }

  async resetPassword(actor: AdminPrincipal, id: number, password: string): Promise<void> {
    const target = await this.manageable(actor, id);
    const now = this.now();
    await this.admins.setPasswordHash(id, await hashPassword(password), now);
    await this.admins.revokeSessions(id, now, target.id === actor.id ? actor.sessionId : undefined);
    await this.principals.subject('admin', id);
  }

  async delete(actor: AdminPrincipal, id: number): Promise<void> {
    const target = await this.manageable(actor, id);
    this.refuseSelfOrFounder(actor, target, 'delete');
    await this.admins.revokeSessions(id, this.now());
    await this.admins.delete(id);
    await this.principals.subject('admin', id);
  }

  private refuseSelfOrFounder(
    actor: AdminPrincipal,
    target: Admin,
    verb: 'disable' | 'delete',
  ): void {
    if (target.id === actor.id) {
      throw new ApiError(
        message(verb === 'disable' ? 'admin.cannotDisableSelf' : 'admin.cannotDeleteSelf'),
      );
    }
    if (target.isFounder) {
      const username = target.username;
      throw new ApiError(
        verb === 'disable'
          ? message('admin.cannotDisableFounder', { username })
          : message('admin.cannotDeleteFounder', { username }),
      );
    }
  }

  private async found(id: number): Promise<Admin> {
    const admin = await this.admins.findById(id);
    if (!admin) throw new ApiError({ ...message('admin.adminNotFound', { id }), field: 'id' });
    return admin;
  }

  /** The target, when the actor's rules reach every rule the target holds. */
  private async manageable(actor: AdminPrincipal, id: number): Promise<Admin> {
    const target = await this.found(id);
    if (target.id === actor.id) return target;
    if (target.isFounder && !actor.isFounder) {
      throw new ApiError(message('admin.onlyFounderChangesFounder', { username: target.username }));
    }
    if (!coversRules(actor.rules, await this.accounts.rulesOf(target))) {
      throw new ApiError(message('admin.adminHoldsMoreRules', { username: target.username }));
    }
    return target;
  }

  /** The roles, when they exist and the actor holds every rule in them. */
  private async grantableRoles(actor: AdminPrincipal, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const roles = await this.roles.findByIds(unique);
    const missing = unique.filter((id) => !roles.some((r) => r.id === id));
    if (missing.length > 0) {
      throw new ApiError({
        ...message('admin.rolesNotFound', { ids: missing.join(', ') }),
        field: 'roleIds',
      });
    }
    const beyond = roles.filter((role: Role) => !coversRules(actor.rules, role.rules));
    if (beyond.length > 0) {
      throw new ApiError({
        ...message('admin.rolesBeyondRules', { names: beyond.map((r) => r.name).join(', ') }),
        field: 'roleIds',
      });
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
