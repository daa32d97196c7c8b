import type { AreaName } from '@atrium/shared/areas';
import { Code, hasRule, Limits, type Envelope } from '@atrium/shared';
import {
  callUrl,
  type AnswerOf,
  type Call,
  type ParsedRequestOf,
} from '@atrium/shared/contract/call';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z, ZodType } from 'zod';
import { noPermission, notLoggedIn } from './envelope';
import type { AdminPrincipal, Authenticator, MemberPrincipal } from './principal';

type Area = AreaName | 'public';

/** What the registry keeps of each route, so tests can walk every one of them. */
export interface RouteRecord {
  method: 'POST';
  path: string;
  area: Area;
  /** Admin routes: the rule needed, null for "signed in, no rule", undefined when public. */
  rule: string | null | undefined;
  /** Callable without signing in. */
  public: boolean;
  body: ZodType;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeRegistry: RouteRecord[];
    /** Every route Fastify serves, however registered, so a test can find one without a declaration. */
    servedRoutes: { method: string; url: string }[];
    authenticator: Authenticator;
    /** Parse each success against its declared answer (tests only; see Config.checkAnswers). */
    checkAnswers: boolean;
  }
  interface FastifyRequest {
    admin: AdminPrincipal | null;
    member: MemberPrincipal | null;
  }
}

interface Context<B, P> {
  body: B;
  params: P;
  req: FastifyRequest;
  reply: FastifyReply;
}

type Params<PS> = PS extends ZodType ? z.output<PS> : Record<string, never>;

/** A POST without a body means "no fields", the same as `{}`. */
async function emptyBodyAsObject(req: FastifyRequest): Promise<void> {
  if (req.body === undefined) req.body = {};
}

/** Decorations the route helper relies on; buildApp calls this before any feature registers. */
export function registerRouting(
  app: FastifyInstance,
  authenticator: Authenticator,
  options: { checkAnswers: boolean },
): void {
  app.decorate('routeRegistry', []);
  app.decorate('servedRoutes', []);
  app.addHook('onRoute', (options) => {
    for (const method of [options.method].flat())
      app.servedRoutes.push({ method, url: options.url });
  });
  app.decorate('authenticator', authenticator);
  app.decorate('checkAnswers', options.checkAnswers);
  app.decorateRequest('admin', null);
  app.decorateRequest('member', null);
}

/** Who a handler serves: the principal its call's access guarantees. */
type CallerOf<C> = C extends { area: 'admin'; public: true }
  ? { admin: AdminPrincipal | null }
  : C extends { area: 'admin' }
    ? { admin: AdminPrincipal }
    : C extends { area: 'member'; public: true }
      ? { member: MemberPrincipal | null }
      : { member: MemberPrincipal };

/**
 * A handler answers its call's declared `data` on success; a failure carries none (`fail()` and
 * thrown `ApiError`s), so the compiler checks every success against the declaration.
 */
export type CallHandler<C extends Call, P = Record<string, never>> = (
  ctx: Context<ParsedRequestOf<C>, P> & CallerOf<C>,
) => Promise<Envelope<AnswerOf<C>>>;

/** What a route adds to its declaration: URL parameters (`:name` segments) and the full URL. */
export interface RouteOptions<PS extends ZodType | undefined> {
  params?: PS;
  /** Defaults to the call's `/admin/api/...` or `/api/...` URL (DESIGN 5). */
  url?: string;
  /** A signed-in caller's largest body, when a call takes more than `Limits.jsonBodyLimitBytes`. */
  bodyLimit?: number;
}

/** Fails a test whose handler answered what its declaration does not allow. */
export function checkedAnswer(answer: ZodType, url: string, result: Envelope): Envelope {
  if (result.code !== Code.Success) return result;
  const parsed = answer.safeParse(result.data);
  if (parsed.success) return result;
  const issue = parsed.error.issues[0];
  const where = issue?.path.map(String).join('.') || 'data';
  throw new Error(`${url} answered data its declaration refuses: ${where}: ${issue?.message}`);
}

/**
 * Registers the POST route of a declared call: the caller is resolved and its rule checked before
 * the body is even parsed (so an anonymous caller learns nothing from validation), then the body
 * is validated with the call's request schema and the handler's envelope is sent.
 */
export function route<C extends Call, PS extends ZodType | undefined = undefined>(
  app: FastifyInstance,
  call: C,
  handler: CallHandler<C, Params<PS>>,
  options: RouteOptions<PS> = {},
): void {
  const url = options.url ?? callUrl(call);
  const isPublic = call.public === true;
  const rule = call.area === 'admin' && !isPublic ? (call.rule ?? null) : undefined;
  const area: Area = call.area === 'member' && isPublic ? 'public' : call.area;
  app.routeRegistry.push({
    method: 'POST',
    path: url,
    area,
    rule,
    public: isPublic,
    body: call.request,
  });

  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url,
    schema: { body: call.request, ...(options.params ? { params: options.params } : {}) },
    // Only a signed-in caller may send a large body: the caller is known before it is read, and
    // a public route keeps the server's small default (ServerLimits.anonymousBodyLimitBytes).
    ...(isPublic ? {} : { bodyLimit: options.bodyLimit ?? Limits.jsonBodyLimitBytes }),
    onRequest: async (req, reply) => {
      if (call.area === 'admin') {
        req.admin = (await app.authenticator.admin(req, reply)) ?? null;
        if (!req.admin) {
          if (!isPublic) return reply.send(notLoggedIn());
        } else if (typeof rule === 'string' && !hasRule(req.admin.rules, rule)) {
          return reply.send(noPermission());
        }
      } else {
        req.member = (await app.authenticator.member(req, reply)) ?? null;
        if (!req.member && !isPublic) return reply.send(notLoggedIn());
      }
    },
    preValidation: emptyBodyAsObject,
    handler: async (req, reply) => {
      const base = {
        body: req.body as ParsedRequestOf<C>,
        params: req.params as Params<PS>,
        req,
        reply,
      };
      let caller: { admin: AdminPrincipal | null } | { member: MemberPrincipal | null };
      if (call.area === 'admin') {
        if (!isPublic && !req.admin) return notLoggedIn();
        caller = { admin: req.admin };
      } else {
        if (!isPublic && !req.member) return notLoggedIn();
        caller = { member: req.member };
      }
      // The access check above makes the caller what CallerOf<C> promises.
      const result = await handler({ ...base, ...caller } as Context<
        ParsedRequestOf<C>,
        Params<PS>
      > &
        CallerOf<C>);
      return app.checkAnswers ? checkedAnswer(call.answer, url, result) : result;
    },
  });
}
