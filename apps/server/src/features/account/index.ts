import type { FastifyInstance } from 'fastify';
import type { VerifyService } from '../verify/index';
import { AccountRepository } from './account.repository';
import { registerAccountRoutes } from './account.routes';
import { AccountService } from './account.service';

/** Member sign-up, password reset, profile and password change (DESIGN 5, 7). */
export function registerAccountFeature(
  app: FastifyInstance,
  deps: {
    verify: VerifyService;
    /** Whether the member's own image library holds `path` (the avatar must be theirs). */
    ownsImage: (memberId: number, path: string) => Promise<boolean>;
  },
): AccountService {
  const { db, limits, now, members, sessions, principals } = app.services;
  const account = new AccountService({
    repo: new AccountRepository(db),
    members,
    sessions,
    principals,
    verify: deps.verify,
    limits,
    ownsImage: deps.ownsImage,
    now,
  });
  registerAccountRoutes(app, account);
  return account;
}
