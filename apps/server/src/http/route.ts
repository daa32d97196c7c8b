import { hasRule, Limits, type Envelope } from '@atrium/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z, ZodType } from 'zod';
import { noPermission, notLoggedIn } from './envelope';
import type { AdminPrincipal, Authenticator, MemberPrincipal } from './principal';

export type Area = 'admin' | 'member' | 'public';

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
    authenticator: Authenticator;
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

type Handler<B, P, Who> = (ctx: Context<B, P> & Who) => Promise<Envelope>;

interface Base<S extends ZodType, PS extends ZodType | undefined> {
  /** The full URL, e.g. `/admin/api/auth/login`. */
  path: string;
  /** The JSON body schema; use z.strictObject so unknown fields are refused. */
  body: S;
  /** Optional URL parameter schema, for paths with `:name` segments. */
  params?: PS;
}

type Params<PS> = PS extends ZodType ? z.output<PS> : Record<string, never>;

/**
 * Admin routes must say what they need: `rule` (checked with the shared matcher), `rule: null`
 * (signed in, no rule: logout), or `public: true` (login, app config).
 */
export type RouteSpec<S extends ZodType, PS extends ZodType | undefined = undefined> =
  | (Base<S, PS> & {
      area: 'admin';
      rule: string | null;
      public?: false;
      handler: Handler<z.output<S>, Params<PS>, { admin: AdminPrincipal }>;
    })
  | (Base<S, PS> & {
      area: 'admin';
      public: true;
      rule?: undefined;
      handler: Handler<z.output<S>, Params<PS>, { admin: AdminPrincipal | null }>;
    })
  | (Base<S, PS> & {
      area: 'member';
      handler: Handler<z.output<S>, Params<PS>, { member: MemberPrincipal }>;
    })
  | (Base<S, PS> & {
      area: 'public';
      handler: Handler<z.output<S>, Params<PS>, { member: MemberPrincipal | null }>;
    });

/** A POST without a body means "no fields", the same as `{}`. */
async function emptyBodyAsObject(req: FastifyRequest): Promise<void> {
  if (req.body === undefined) req.body = {};
}

/** Decorations the route helper relies on; buildApp calls this before any feature registers. */
export function registerRouting(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorate('routeRegistry', []);
  app.decorate('authenticator', authenticator);
  app.decorateRequest('admin', null);
  app.decorateRequest('member', null);
}

/**
 * Registers a POST route: the caller is resolved and its rule checked before the body is even
 * parsed (so an anonymous caller learns nothing from validation), then the body is validated
 * with the zod schema and the handler's envelope is sent.
 */
export function route<S extends ZodType, PS extends ZodType | undefined = undefined>(
  app: FastifyInstance,
  spec: RouteSpec<S, PS>,
): void {
  const isPublic = spec.area === 'public' || (spec.area === 'admin' && spec.public === true);
  const rule = spec.area === 'admin' && spec.public !== true ? spec.rule : undefined;
  app.routeRegistry.push({
    method: 'POST',
    path: spec.path,
    area: spec.area,
    rule,
    public: isPublic,
    body: spec.body,
  });

  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: spec.path,
    schema: { body: spec.body, ...(spec.params ? { params: spec.params } : {}) },
    // Only a signed-in caller may send a large body: the caller is known before it is read, and
    // a public route keeps the server's small default (ServerLimits.anonymousBodyLimitBytes).
    ...(isPublic ? {} : { bodyLimit: Limits.jsonBodyLimitBytes }),
    onRequest: async (req, reply) => {
      if (spec.area === 'admin') {
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
      const base = { body: req.body as z.output<S>, params: req.params as Params<PS>, req, reply };
      switch (spec.area) {
        case 'admin':
          if (spec.public === true) return spec.handler({ ...base, admin: req.admin });
          if (!req.admin) return notLoggedIn();
          return spec.handler({ ...base, admin: req.admin });
        case 'member':
          if (!req.member) return notLoggedIn();
          return spec.handler({ ...base, member: req.member });
        case 'public':
          return spec.handler({ ...base, member: req.member });
      }
    },
  });
}
