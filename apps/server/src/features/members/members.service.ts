import type { Db } from '../../db/index';
import { ApiError } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import { hashPassword } from '../../security/passwords';
import { MembersRepository, type Member } from './members.repository';

export interface CreateMemberInput {
  username: string;
  password: string;
  email?: string;
  phone?: string;
  nickname?: string;
}

export class MembersService {
  private readonly members: MembersRepository;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.members = new MembersRepository(db);
  }

  findById(id: number): Promise<Member | undefined> {
    return this.members.findById(id);
  }

  setDisabled(id: number, disabled: boolean): Promise<void> {
    return this.members.setDisabled(id, disabled, this.now());
  }

  /** The member whose username, e-mail or phone is `login`. */
  findByLogin(login: string): Promise<Member | undefined> {
    return this.members.findByLogin(login.trim());
  }

  async create(input: CreateMemberInput): Promise<Member> {
    const username = input.username.trim();
    if (await this.members.findByLogin(username))
      throw new ApiError(`username: ${username} is taken`);
    if (input.email && (await this.members.findByLogin(input.email))) {
      throw new ApiError('email: already registered');
    }
    if (input.phone && (await this.members.findByLogin(input.phone))) {
      throw new ApiError('phone: already registered');
    }
    return this.members.create({
      username,
      email: input.email ?? null,
      phone: input.phone ?? null,
      passwordHash: await hashPassword(input.password),
      nickname: input.nickname ?? username,
      now: this.now(),
    });
  }

  /** The principal for a signed-in member, or undefined when the account is gone or disabled. */
  async principal(memberId: number, sessionId: number): Promise<MemberPrincipal | undefined> {
    const member = await this.members.findById(memberId);
    if (!member || member.disabled) return undefined;
    return {
      id: member.id,
      username: member.username,
      nickname: member.nickname,
      avatar: member.avatar,
      sessionId,
    };
  }
}
