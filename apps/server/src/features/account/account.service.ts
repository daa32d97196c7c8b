import type { LoginResponse } from '@atrium/shared';
import type {
  PasswordChangeRequest,
  PasswordResetRequest,
  Profile,
  ProfileSaveRequest,
  RegisterRequest,
} from '@atrium/shared/contract/accounts';
import type { Language } from '@atrium/shared/messages/catalogue';
import { ApiError, message } from '../../http/envelope';
import type { MemberPrincipal, PrincipalChanges } from '../../http/principal';
import type { RateLimits } from '../../http/rate-limits';
import { hashPassword, verifyPassword } from '../../security/passwords';
import type { SessionsService } from '../auth/index';
import { usernameTaken, type MembersService } from '../members/index';
import { targetOf, type VerifyService } from '../verify/index';
import type { AccountRepository } from './account.repository';

export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** The request's language: the member's from now on. */
  lang: Language;
}

export const AccountMessages = {
  noAccount: { ...message('account.noAccount'), field: 'target' },
  passwordReset: message('account.passwordReset'),
  passwordChanged: message('account.passwordChanged'),
  wrongOldPassword: {
    ...message('account.wrongOldPassword', { field: message('field.oldPassword') }),
    field: 'oldPassword',
  },
  samePassword: { ...message('account.samePassword'), field: 'password' },
  profileSaved: message('account.profileSaved'),
  notOwnAvatar: {
    ...message('account.notOwnAvatar', { field: message('field.avatar') }),
    field: 'avatar',
  },
  notFound: message('account.notFound'),
} as const;

export class AccountService {
  constructor(
    private readonly deps: {
      repo: AccountRepository;
      members: MembersService;
      sessions: SessionsService;
      /** Told of every change to a member's account, so no instance answers for the old one. */
      principals: PrincipalChanges;
      verify: VerifyService;
      limits: RateLimits;
      /** Whether the member's own image library holds this path. */
      ownsImage: (memberId: number, path: string) => Promise<boolean>;
      now: () => number;
    },
  ) {}

  /**
   * Creates the member once the code checks out, and signs them in. The captcha was answered when
   * the code was asked for (`verify/send`), which also refused a taken username.
   */
  async register(body: RegisterRequest, client: ClientInfo): Promise<LoginResponse> {
    const { members, verify, sessions, repo } = this.deps;
    const target = targetOf(body.target);
    // A name taken since the code was sent is said only to whoever holds a right code, and it
    // costs one of the code's tries: no cheaper to ask than the captcha of the code request.
    // The code itself is kept, so the person can pick another name. Whether an address is
    // registered is said only once its code is used.
    await verify.consume(target, body.code, async () => {
      if (await members.findByLogin(body.username)) {
        throw new ApiError(usernameTaken(body.username));
      }
    });
    if (await repo.findIdByContact(target.kind, target.value)) {
      throw new ApiError({
        ...message(target.kind === 'email' ? 'account.emailRegistered' : 'account.phoneRegistered'),
        field: 'target',
      });
    }
    const member = await members.create({
      username: body.username,
      password: body.password,
      ...(target.kind === 'email' ? { email: target.value } : { phone: target.value }),
      nickname: body.nickname || body.username,
      lang: client.lang,
    });
    const { token } = await sessions.issue('member', member.id, {
      ip: client.ip,
      userAgent: client.userAgent,
    });
    return {
      user: {
        id: member.id,
        username: member.username,
        nickname: member.nickname,
        avatar: member.avatar,
      },
      token,
    };
  }

  /** Sets a new password for the owner of the e-mail or phone and signs out all their sessions. */
  async resetPassword(body: PasswordResetRequest): Promise<void> {
    const { repo, verify, now } = this.deps;
    const target = targetOf(body.target);
    await verify.consume(target, body.code);
    const memberId = await repo.findIdByContact(target.kind, target.value);
    if (memberId === undefined) throw new ApiError(AccountMessages.noAccount);
    await repo.setPasswordHash(memberId, await hashPassword(body.password), now());
    await repo.revokeSessions(memberId, now());
    await this.deps.principals.subject('member', memberId);
  }

  async profile(member: MemberPrincipal): Promise<Profile> {
    const profile = await this.deps.repo.profile(member.id);
    if (!profile) throw new ApiError(AccountMessages.notFound);
    return profile;
  }

  async saveProfile(member: MemberPrincipal, body: ProfileSaveRequest): Promise<Profile> {
    const current = await this.deps.repo.profile(member.id);
    // Keeping the avatar one already has is always allowed, even after the file left the library.
    if (body.avatar !== '' && body.avatar !== current?.avatar) {
      if (!(await this.deps.ownsImage(member.id, body.avatar))) {
        throw new ApiError(AccountMessages.notOwnAvatar);
      }
    }
    await this.deps.repo.saveProfile(member.id, body, this.deps.now());
    await this.deps.principals.subject('member', member.id);
    return this.profile(member);
  }

  /** Changes the password after checking the current one; every other session is signed out. */
  async changePassword(member: MemberPrincipal, body: PasswordChangeRequest): Promise<void> {
    const { repo, limits, now } = this.deps;
    const key = String(member.id);
    // Counted before the check, so parallel guesses can't all be checked (DESIGN 7).
    await limits.consume('passwordChangeFailures', key);
    let right: boolean;
    try {
      right = await verifyPassword(await repo.passwordHash(member.id), body.oldPassword);
    } catch (error) {
      await limits.refund('passwordChangeFailures', key);
      throw error;
    }
    if (!right) throw new ApiError(AccountMessages.wrongOldPassword);
    await limits.reset('passwordChangeFailures', key);
    if (body.password === body.oldPassword) throw new ApiError(AccountMessages.samePassword);
    await repo.setPasswordHash(member.id, await hashPassword(body.password), now());
    await repo.revokeSessions(member.id, now(), member.sessionId);
    await this.deps.principals.subject('member', member.id);
  }
}
