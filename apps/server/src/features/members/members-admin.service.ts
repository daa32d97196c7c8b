import { libraries } from '@atrium/shared/contract/files';
import type { MemberDetail, MemberView } from '@atrium/shared/contract/members';
import type { Paged } from '@atrium/shared/contract/paging';
import type { Db } from '../../db/index';
import { ApiError, message } from '../../http/envelope';
import { hashPassword } from '../../security/passwords';
import type { SessionsService } from '../auth/index';
import type { MembersService } from './members.service';
import type { Member } from './members.repository';
import { MembersAdminRepository, type MemberListRow } from './members-admin.repository';

export interface NewMemberInput {
  username: string;
  password: string;
  email: string;
  phone: string;
  nickname: string;
}

/** Member accounts as admins manage them (DESIGN 7, rule `member`). */
export class MembersAdminService {
  private readonly repo: MembersAdminRepository;

  constructor(
    db: Db,
    private readonly accounts: MembersService,
    private readonly sessions: SessionsService,
    private readonly now: () => number,
  ) {
    this.repo = new MembersAdminRepository(db);
  }

  async list(query: {
    page: number;
    pageSize: number;
    keyword: string;
  }): Promise<Paged<MemberView>> {
    const { records, total } = await this.repo.page(
      query.keyword,
      (query.page - 1) * query.pageSize,
      query.pageSize,
    );
    const lastActive = await this.repo.lastActive(records.map((r) => r.id));
    return {
      records: records.map((r) => toView(r, lastActive.get(r.id) ?? null)),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async get(id: number): Promise<MemberDetail> {
    const member = await this.found(id);
    const [lastActive, libraryUse] = await Promise.all([
      this.repo.lastActive([id]),
      this.repo.storage(id),
    ]);
    const totals = libraries.reduce(
      (sum, l) => ({
        files: sum.files + libraryUse[l].files,
        bytes: sum.bytes + libraryUse[l].bytes,
      }),
      { files: 0, bytes: 0 },
    );
    return {
      ...toView(member, lastActive.get(id) ?? null),
      storage: { ...totals, libraries: libraryUse },
    };
  }

  async create(input: NewMemberInput): Promise<MemberView> {
    const member = await this.accounts.create({
      username: input.username,
      password: input.password,
      nickname: input.nickname || input.username,
      ...(input.email ? { email: input.email } : {}),
      ...(input.phone ? { phone: input.phone } : {}),
    });
    return toView(member, null);
  }

  async setDisabled(id: number, disabled: boolean): Promise<MemberView> {
    await this.found(id);
    await this.accounts.setDisabled(id, disabled);
    if (disabled) await this.sessions.revokeAllFor('member', id);
    const member = await this.found(id);
    return toView(member, (await this.repo.lastActive([id])).get(id) ?? null);
  }

  async resetPassword(id: number, password: string): Promise<void> {
    await this.found(id);
    await this.repo.setPasswordHash(id, await hashPassword(password), this.now());
    await this.sessions.revokeAllFor('member', id);
  }

  private async found(id: number): Promise<Member> {
    const member = await this.accounts.findById(id);
    if (!member) throw new ApiError({ ...message('admin.memberNotFound', { id }), field: 'id' });
    return member;
  }
}

function toView(member: MemberListRow | Member, lastActiveAt: number | null): MemberView {
  return {
    id: member.id,
    username: member.username,
    email: member.email,
    phone: member.phone,
    nickname: member.nickname,
    avatar: member.avatar,
    disabled: member.disabled,
    lastActiveAt,
    createdAt: member.createdAt,
    updatedAt: member.updatedAt,
  };
}
