import { Limits } from '@atrium/shared';
import type { SubjectType } from '../../db/types';
import { headerText } from '../../http/header-text';
import type { AuthenticateOptions, PrincipalChanges } from '../../http/principal';
import { hashToken, newToken } from '../../http/tokens';
import type { Session, SessionsRepository } from './sessions.repository';

/** Session timing (DESIGN 4, SPEC 9). */
const SessionTiming = {
  idleMs: Limits.sessionIdleMs,
  maxAgeMs: Limits.sessionMaxAgeMs,
  /** A token older than this is swapped for a fresh one on its next use. */
  rotateAfterMs: 15 * 60_000,
  /** The replaced token keeps working this long, for requests already in flight. */
  graceMs: 60_000,
  /** last_seen_at / expires_at are written at most this often, not on every request. */
  touchEveryMs: 60_000,
} as const;

export interface Authenticated {
  session: Session;
  /** The token to answer with; undefined when the request used a just-replaced token. */
  token: string | undefined;
  /**
   * Until when this token may be answered from memory without this call: the session's next
   * touch, rotation or expiry. Undefined for a just-replaced token, which is never kept.
   */
  freshUntil: number | undefined;
}

export class SessionsService {
  constructor(
    private readonly repo: SessionsRepository,
    private readonly now: () => number,
    /** Told of every revoke and rotation, so no instance keeps answering for the old state. */
    private readonly changes: Pick<PrincipalChanges, 'session' | 'subject'>,
  ) {}

  async issue(
    subjectType: SubjectType,
    subjectId: number,
    client: { ip: string; userAgent: string },
  ): Promise<{ token: string; session: Session }> {
    const token = newToken();
    const now = this.now();
    const session = await this.repo.create({
      subjectType,
      subjectId,
      tokenHash: hashToken(token),
      now,
      expiresAt: now + SessionTiming.idleMs,
      ip: headerText(client.ip, 100),
      userAgent: headerText(client.userAgent, 500),
    });
    return { token, session };
  }

  /**
   * The live session for a token, sliding its idle expiry and rotating the token when it is old.
   * A token replaced less than a minute ago still works (parallel requests), but its answer
   * carries no token so it can't overwrite the fresh one the client just stored.
   */
  async authenticate(
    subjectType: SubjectType,
    token: string,
    { rotate = true }: AuthenticateOptions = {},
  ): Promise<Authenticated | undefined> {
    const hash = hashToken(token);
    const session = await this.repo.findByTokenHash(subjectType, hash);
    if (!session) return undefined;
    const now = this.now();
    const hardEnd = session.createdAt + SessionTiming.maxAgeMs;
    if (session.revokedAt !== null || session.expiresAt <= now || hardEnd <= now) return undefined;

    if (session.tokenHash !== hash) {
      return now - session.rotatedAt <= SessionTiming.graceMs
        ? { session, token: undefined, freshUntil: undefined }
        : undefined;
    }

    const expiresAt = Math.min(now + SessionTiming.idleMs, hardEnd);
    if (rotate && now - session.rotatedAt >= SessionTiming.rotateAfterMs) {
      const fresh = newToken();
      const rotated = await this.repo.rotate(session.id, hash, {
        tokenHash: hashToken(fresh),
        now,
        expiresAt,
      });
      if (rotated) await this.changes.session(session.id);
      return { session, token: rotated ? fresh : undefined, freshUntil: undefined };
    }
    let { lastSeenAt } = session;
    let sessionEnd = session.expiresAt;
    if (now - lastSeenAt >= SessionTiming.touchEveryMs) {
      await this.repo.touch(session.id, now, expiresAt);
      lastSeenAt = now;
      sessionEnd = expiresAt;
    }
    const freshUntil = Math.min(
      lastSeenAt + SessionTiming.touchEveryMs,
      session.rotatedAt + SessionTiming.rotateAfterMs,
      sessionEnd,
      hardEnd,
    );
    return { session, token, freshUntil };
  }

  /**
   * A live session found by its id rather than a token (an upload grant names it), sliding its
   * idle expiry like any use; never rotates, as no token came with the request.
   */
  async resume(subjectType: SubjectType, sessionId: number): Promise<Session | undefined> {
    const session = await this.repo.findById(sessionId);
    if (!session || session.subjectType !== subjectType) return undefined;
    const now = this.now();
    const hardEnd = session.createdAt + SessionTiming.maxAgeMs;
    if (session.revokedAt !== null || session.expiresAt <= now || hardEnd <= now) return undefined;
    if (now - session.lastSeenAt >= SessionTiming.touchEveryMs) {
      await this.repo.touch(session.id, now, Math.min(now + SessionTiming.idleMs, hardEnd));
    }
    return session;
  }

  async revoke(sessionId: number): Promise<void> {
    await this.repo.revoke(sessionId, this.now());
    await this.changes.session(sessionId);
  }

  async revokeAllFor(subjectType: SubjectType, subjectId: number): Promise<void> {
    await this.repo.revokeAllFor(subjectType, subjectId, this.now());
    await this.changes.subject(subjectType, subjectId);
  }
}
