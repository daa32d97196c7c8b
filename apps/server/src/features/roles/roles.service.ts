import type { RoleView } from '@atrium/shared/contract/admins';
import { coversRules } from '@atrium/shared/role-rules';
import type { Db } from '../../db/index';
import { ApiError, message } from '../../http/envelope';
import type { AdminPrincipal, PrincipalChanges } from '../../http/principal';
import { RolesRepository, type Role } from './roles.repository';

/**
 * Roles (DESIGN 7, rule `system/role`). Rules are read on every request (AdminsService.principal),
 * so a change reaches the role's admins on their next call. An admin only writes rules they hold
 * themselves and only touches roles within their own rules.
 */
export class RolesService {
  private readonly roles: RolesRepository;

  constructor(
    db: Db,
    private readonly now: () => number,
    /** Told when rules change: every admin's principal carries the rules of their roles. */
    private readonly principals: PrincipalChanges,
  ) {
    this.roles = new RolesRepository(db);
  }

  async list(): Promise<RoleView[]> {
    const [roles, counts] = await Promise.all([this.roles.list(), this.roles.adminCounts()]);
    return roles.map((role) => this.toView(role, counts.get(role.id) ?? 0));
  }

  async create(actor: AdminPrincipal, input: { name: string; rules: string[] }): Promise<RoleView> {
    const rules = this.grantable(actor, input.rules);
    await this.refuseTakenName(input.name);
    const role = await this.roles.create({ name: input.name, rules, now: this.now() });
    return this.toView(role, 0);
  }

  async edit(
    actor: AdminPrincipal,
    id: number,
    input: { name: string; rules: string[] },
  ): Promise<RoleView> {
    const role = await this.manageable(actor, id);
    const rules = this.grantable(actor, input.rules);
    if (input.name !== role.name) await this.refuseTakenName(input.name);
    await this.roles.update(id, { name: input.name, rules, now: this.now() });
    await this.principals.area('admin');
    return this.view(id);
  }

  async delete(actor: AdminPrincipal, id: number): Promise<void> {
    const role = await this.manageable(actor, id);
    const holders = (await this.roles.adminCounts()).get(id) ?? 0;
    if (holders > 0) {
      throw new ApiError(message('admin.roleInUse', { name: role.name, count: holders }));
    }
    await this.roles.delete(id);
    await this.principals.area('admin');
  }

  private async view(id: number): Promise<RoleView> {
    const role = await this.roles.findById(id);
    if (!role) throw new ApiError({ ...message('admin.roleNotFound', { id }), field: 'id' });
    return this.toView(role, (await this.roles.adminCounts()).get(id) ?? 0);
  }

  private toView(role: Role, adminCount: number): RoleView {
    return { ...role, adminCount };
  }

  private async manageable(actor: AdminPrincipal, id: number): Promise<Role> {
    const role = await this.roles.findById(id);
    if (!role) throw new ApiError({ ...message('admin.roleNotFound', { id }), field: 'id' });
    if (!coversRules(actor.rules, role.rules)) {
      throw new ApiError(message('admin.roleBeyondRules', { name: role.name }));
    }
    return role;
  }

  private grantable(actor: AdminPrincipal, rules: readonly string[]): string[] {
    const unique = [...new Set(rules)];
    const beyond = unique.filter((rule) => !coversRules(actor.rules, [rule]));
    if (beyond.length > 0) {
      throw new ApiError({
        ...message('admin.ruleNotHeld', { rules: beyond.join(', ') }),
        field: 'rules',
      });
    }
    return unique;
  }

  private async refuseTakenName(name: string): Promise<void> {
    if (await this.roles.findByName(name)) {
      throw new ApiError({ ...message('admin.roleNameTaken', { name }), field: 'name' });
    }
  }
}
