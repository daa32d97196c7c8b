import type { Language } from '@atrium/shared/messages/catalogue';
import type { Db } from '../../db/index';
import { ApiError, message } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import { hashPassword } from '../../security/passwords';
import { MembersRepository, type Member } from './members.repository';

export interface CreateMemberInput {
  username: string;
  password: string;
  email?: string;
  phone?: string;
  nickname?: string;
  /** The language the member reads (the registering request's). */
  lang?: Language;
}

/** "Username alice is taken", naming the field `username`. */
export const usernameTaken = (username: string) => ({
  ...message('account.usernameTaken', { field: message('field.username'), username }),
  field: 'username',
});

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
    if (await this.members.findByLogin(username)) throw new ApiError(usernameTaken(username));
    if (input.email && (await this.members.findByLogin(input.email))) {
      throw new ApiError({ ...message('account.emailRegistered'), field: 'email' });
    }
    if (input.phone && (await this.members.findByLogin(input.phone))) {
      throw new ApiError({ ...message('account.phoneRegistered'), field: 'phone' });
    }
    return this.members.create({
      username,
      email: input.email ?? null,
      phone: input.phone ?? null,
      passwordHash: await hashPassword(input.password),
      nickname: input.nickname ?? username,
      ...(input.lang ? { lang: input.lang } : {}),
      now: this.now(),
    });
  }

  /** Notes the language the member reads, when it changed (sign-in). */
  setLanguage(id: number, lang: Language): Promise<void> {
    return this.members.setLanguage(id, lang);
  }

  /** The language of the member with this e-mail or phone (normalised), if one has it. */
  languageByContact(kind: 'email' | 'phone', value: string): Promise<Language | undefined> {
    return this.members.languageByContact(kind, value);
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
