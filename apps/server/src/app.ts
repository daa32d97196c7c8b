import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { createBus, type Bus } from './bus/index';
import type { Config } from './config';
import { createDb, type Db } from './db/index';
import { AdminAccountsService } from './features/admins/admin-accounts.service';
import { registerAdminsRoutes } from './features/admins/admins.routes';
import { AdminsService } from './features/admins/admins.service';
import { registerAuditFeature } from './features/audit/audit.routes';
import { registerDashboardRoutes } from './features/dashboard/dashboard.routes';
import { DashboardService } from './features/dashboard/dashboard.service';
import { registerMembersAdminRoutes } from './features/members-admin/members-admin.routes';
import { MembersAdminService } from './features/members-admin/members-admin.service';
import { registerRolesRoutes } from './features/roles/roles.routes';
import { RolesService } from './features/roles/roles.service';
import { registerUploadSettingsRoutes } from './features/upload-settings/upload-settings.routes';
import { UploadSettingsService } from './features/upload-settings/upload-settings.service';
import { registerAppRoutes } from './features/app/app.routes';
import { AppService, DEFAULT_SITE_NAME } from './features/app/app.service';
import { LazyHashes } from './features/app/lazy-hashes';
import { WebVersion } from './features/app/web-version';
import { registerAccountsFeature } from './features/account/accounts.feature';
import { registerAuthRoutes } from './features/auth/auth.routes';
import { AuthService } from './features/auth/auth.service';
import { createAuthenticator } from './features/auth/authenticator';
import type { CaptchaVerifier } from './features/auth/captcha';
import { SessionsRepository } from './features/auth/sessions.repository';
import { SessionsService } from './features/auth/sessions.service';
import { imageLoginCaptcha } from './features/captcha/login-captcha';
import { MembersService } from './features/members/members.service';
import { registerFilesFeature } from './features/files/files.routes';
import { registerAigcFeature, type AigcOptions } from './features/chat/aigc.feature';
import { SettingsRepository } from './features/settings/settings.repository';
import { registerSiteSettingsRoutes } from './features/site-settings/site-settings.routes';
import { SiteSettingsService } from './features/site-settings/site-settings.service';
import { answerFrameworkError, registerErrorHandling } from './http/errors';
import { createRateLimits, type RateLimits } from './http/rate-limits';
import { registerRouting } from './http/route';
import { registerInflightBodies } from './http/inflight';
import { helmetHeaders } from './http/security-headers';
import { defaultServerLimits, serverOptions, type ServerLimits } from './http/server-limits';
import { registerXsrf } from './http/xsrf';
import { Instances, type InstanceTiming } from './instances/instances';
import { registerWebApp } from './web/static';

export interface AppDeps {
  /** A migrated database; when omitted one is opened from the config and closed with the app. */
  db?: Db;
  /** When omitted one is made from the config (memory or Redis) and closed with the app. */
  bus?: Bus;
  /** How often this instance beats and when others count it dead (tests shorten them). */
  instanceTiming?: InstanceTiming;
  /** Rate-limit counters; when omitted, in memory or in Redis as the config says. */
  limits?: RateLimits;
  /** The clock every time-based rule reads (sessions, rate limits); tests move it. */
  now?: () => number;
  captcha?: CaptchaVerifier;
  logger?: FastifyBaseLogger;
  /** Routes an embedder (or a test) adds before the instance is sealed by `ready()`. */
  extraRoutes?: (app: FastifyInstance) => void;
  /** Knobs of the chat feature (time-outs, provider client) for tests and benchmarks. */
  aigc?: AigcOptions;
  /** Time-outs and body bounds; tests shorten them. */
  serverLimits?: Partial<ServerLimits>;
}

/** The services features share; built once per app. */
export interface AppServices {
  db: Db;
  bus: Bus;
  limits: RateLimits;
  /** This process among the instances sharing the database (claims and leases name it). */
  instances: Instances;
  now: () => number;
  admins: AdminsService;
  members: MembersService;
  sessions: SessionsService;
  settings: SettingsRepository;
  auth: AuthService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

function contentSecurityPolicy(config: Config) {
  const s3Origin =
    config.storage.driver === 's3' && config.storage.publicUrl
      ? [new URL(config.storage.publicUrl).origin]
      : [];
  // No upgrade-insecure-requests: the default install is plain http, also on LAN addresses.
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      // hash-wasm compiles WebAssembly for the in-browser MD5 of uploads.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // antd and the editors set inline styles.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...s3Origin],
      mediaSrc: ["'self'", 'blob:', ...s3Origin],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'self'"],
      formAction: ["'self'"],
    },
  };
}

/**
 * Builds the whole server: plugins, hooks and every feature's routes. It never listens, so tests
 * drive it with `app.inject()` and main.ts decides where it listens.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const now = deps.now ?? Date.now;
  const ownsDb = deps.db === undefined;
  const ownsBus = deps.bus === undefined;
  const db = deps.db ?? createDb(config.database);
  const bus = deps.bus ?? createBus(config, now);
  const ownsLimits = deps.limits === undefined;
  const limits = deps.limits ?? createRateLimits(config);

  // Rendered before the server exists: the answers Node's parser and the router give carry them.
  const securityHeaders = helmetHeaders({ contentSecurityPolicy: contentSecurityPolicy(config) });
  const serverLimits = { ...defaultServerLimits, ...deps.serverLimits };
  const app = Fastify({
    loggerInstance: deps.logger ?? pino({ level: config.logLevel }),
    genReqId: () => randomUUID(),
    ...serverOptions(serverLimits, securityHeaders, answerFrameworkError),
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < Number(config.trustProxy)
        : config.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onClose', async () => {
    await instances.stop();
    if (ownsBus) await bus.close();
    if (ownsLimits) await limits.close();
    if (ownsDb) await db.destroy();
  });

  // Security headers (helmet's, rendered once) and the request id, on every answer.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(securityHeaders);
    reply.header('x-request-id', req.id);
    done();
  });
  registerInflightBodies(app, { limits: serverLimits, securityHeaders });

  // Only JSON bodies: a cross-site form can send text/plain without a preflight, never JSON.
  app.removeContentTypeParser('text/plain');

  registerErrorHandling(app);
  await app.register(fastifyCookie);
  registerXsrf(app, { secureCookie: config.publicUrl?.startsWith('https:') ?? false });

  const instances = new Instances(db, now, deps.instanceTiming, (error) =>
    app.log.warn({ err: error }, 'instance heartbeat failed'),
  );

  const sessions = new SessionsService(new SessionsRepository(db), now);
  const admins = new AdminsService(db, now);
  const members = new MembersService(db, now);
  const settings = new SettingsRepository(db);
  const auth = new AuthService({
    limits,
    sessions,
    admins,
    members,
    captcha: deps.captcha ?? imageLoginCaptcha,
  });
  const services: AppServices = {
    db,
    bus,
    limits,
    instances,
    now,
    admins,
    members,
    sessions,
    settings,
    auth,
  };
  app.decorate('services', services);
  app.decorate('lazyHashes', new LazyHashes());
  registerRouting(app, createAuthenticator({ sessions, admins, members }));
  // Before any route, so every admin write of every feature is audited.
  registerAuditFeature(app, { db, now });

  // Multipart (upload chunks) is registered by the upload feature, next to its routes, here.
  await registerFilesFeature(app, { config, db, settings, now });

  registerAuthRoutes(app, auth);
  registerAdminsRoutes(app, new AdminAccountsService(db, admins, now));
  registerRolesRoutes(app, new RolesService(db, now));
  registerMembersAdminRoutes(app, new MembersAdminService(db, members, sessions, now));
  registerUploadSettingsRoutes(
    app,
    new UploadSettingsService(
      settings,
      { driver: config.storage.driver, minChunkSize: app.filesFeature.storage.minChunkSize },
      now,
    ),
  );
  registerDashboardRoutes(app, new DashboardService(db, now));
  registerAccountsFeature(app, { config });
  await registerAigcFeature(app, {
    config,
    db,
    bus,
    settings,
    now,
    ...(deps.aigc ? { options: deps.aigc } : {}),
  });
  const site = new SiteSettingsService({ db, now, defaultSiteName: DEFAULT_SITE_NAME });
  registerSiteSettingsRoutes(app, site);
  registerAppRoutes(
    app,
    new AppService({
      settings,
      webVersion: new WebVersion(config.webDir, now),
      lazyHashes: app.lazyHashes,
      extraConfig: () => site.publicConfig(),
    }),
  );

  deps.extraRoutes?.(app);
  await registerWebApp(app, config.webDir);
  await app.ready();
  // Beating starts last: a build that fails before here leaves no heartbeat firing at a closed
  // database, and nothing before needs this instance's row (claims are taken by requests).
  try {
    await instances.start();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
