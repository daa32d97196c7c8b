import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { createBus, type Bus } from './bus/index';
import type { Config } from './config';
import { createDb, type Db } from './db/index';
import { startFtsMerger } from './db/fts-merge';
import { registerAccountFeature } from './features/account/index';
import { registerAdminsFeature, AdminsService } from './features/admins/index';
import { registerAiFeature, type ProvidersService } from './features/ai/index';
import { DEFAULT_SITE_NAME, LazyHashes, registerAppFeature } from './features/app/index';
import { registerAuditFeature } from './features/audit/index';
import {
  createAuthenticator,
  PrincipalCache,
  registerAuthFeature,
  SessionsRepository,
  SessionsService,
  type CaptchaVerifier,
} from './features/auth/index';
import { imageLoginCaptcha, registerCaptchaFeature } from './features/captcha/index';
import {
  registerChatFeature,
  SETTINGS_TTL_MS,
  ShortCache,
  type ChatFeature,
  type ChatOptions,
} from './features/chat/index';
import { registerDashboardFeature } from './features/dashboard/index';
import {
  libraryImages,
  registerLibraryFeature,
  type LibraryFeature,
} from './features/library/index';
import { MembersService, registerMembersFeature } from './features/members/index';
import { registerRolesFeature } from './features/roles/index';
import { registerRoomsFeature, ROOMS_LAZY_KEY } from './features/rooms/index';
import { KeptSettings } from './db/kept-settings';
import { SettingsRepository } from './db/settings.repository';
import { registerSiteSettingsFeature } from './features/site-settings/index';
import { registerUploadSettingsFeature } from './features/upload-settings/index';
import { registerVerifyFeature } from './features/verify/index';
import type { CaptchaService } from './features/captcha/index';
import { answerFrameworkError, registerErrorHandling } from './http/errors';
import { createRateLimits, type RateLimits } from './http/rate-limits';
import { registerLanguage } from './http/language';
import { registerRouting } from './http/route';
import { registerInflightBodies } from './http/inflight';
import { PageHeaders } from './http/page-headers';
import { defaultServerLimits, serverOptions, type ServerLimits } from './http/server-limits';
import { registerXsrf } from './http/xsrf';
import { Instances, type InstanceTiming } from './instances/instances';
import { registerOps } from './ops/index';
import { usePasswordCost } from './security/passwords';
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
  /** How often a step merges SQLite's full-text indexes (db/fts-merge.ts); 0 never. */
  ftsMergeMs?: number;
  /** The login captcha: the image captcha (production's) or another verifier (tests). */
  captcha?: CaptchaVerifier | 'image';
  logger?: FastifyBaseLogger;
  /** Routes an embedder (or a test) adds before the instance is sealed by `ready()`. */
  extraRoutes?: (app: FastifyInstance) => void;
  /** Knobs of the chat feature (time-outs, provider client) for tests and benchmarks. */
  aigc?: ChatOptions;
  /** Time-outs and body bounds; tests shorten them. */
  serverLimits?: Partial<ServerLimits>;
}

/** The services features share; built once per app. */
interface AppServices {
  db: Db;
  bus: Bus;
  limits: RateLimits;
  /** This process among the instances sharing the database (claims and leases name it). */
  instances: Instances;
  now: () => number;
  admins: AdminsService;
  members: MembersService;
  sessions: SessionsService;
  /** Signed-in callers kept in memory; every write to an account or session tells it. */
  principals: PrincipalCache;
  settings: SettingsRepository;
  /** The settings every app/config reads, kept in memory (their writers say when they change). */
  keptSettings: KeptSettings;
}

/** What features built, for tests and embedders; production code passes services explicitly. */
interface AppFeatures {
  captcha: CaptchaService;
  files: LibraryFeature;
  providers: ProvidersService;
  chat: ChatFeature;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
    features: AppFeatures;
  }
}

/**
 * Builds the whole server: plugins, hooks and every feature's routes. It never listens, so tests
 * drive it with `app.inject()` and main.ts decides where it listens.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  usePasswordCost(config.passwordCost);
  const now = deps.now ?? Date.now;
  const ownsDb = deps.db === undefined;
  const ownsBus = deps.bus === undefined;
  const db = deps.db ?? createDb(config.database);
  const bus = deps.bus ?? createBus(config, now);
  const ownsLimits = deps.limits === undefined;
  const limits = deps.limits ?? createRateLimits(config);

  // Rendered before the server exists: the answers Node's parser and the router give carry them
  // (never a page, so the start-up policy, which frames nothing but this site, is theirs).
  const pageHeaders = new PageHeaders(config);
  const securityHeaders = pageHeaders.current;
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

  // SQLite's full-text indexes are merged in small steps here, never inside a write.
  const stopFtsMerger = startFtsMerger(db, app.log, deps.ftsMergeMs ?? 1000);
  app.addHook('onClose', async () => {
    stopFtsMerger();
    await instances.stop();
    if (ownsBus) await bus.close();
    if (ownsLimits) await limits.close();
    if (ownsDb) await db.destroy();
  });

  // Security headers (helmet's, rendered again only when a setting changes them) and the request
  // id, on every answer.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(pageHeaders.current);
    reply.header('x-request-id', req.id);
    done();
  });
  registerInflightBodies(app, { limits: serverLimits, securityHeaders });

  // Only JSON bodies: a cross-site form can send text/plain without a preflight, never JSON.
  app.removeContentTypeParser('text/plain');

  registerLanguage(app);
  registerErrorHandling(app);
  await app.register(fastifyCookie);
  registerXsrf(app, { secureCookie: config.publicUrl?.startsWith('https:') ?? false });

  const instances = new Instances(db, now, deps.instanceTiming, (error) =>
    app.log.warn({ err: error }, 'instance heartbeat failed'),
  );

  const principals = new PrincipalCache(bus, now, (error) =>
    app.log.warn({ err: error }, 'principal change not published'),
  );
  // Live before the first request; during a Redis outage it is registered and the cache is
  // bypassed until pub/sub is back.
  await principals.start();
  app.addHook('onClose', async () => principals.stop());
  const sessions = new SessionsService(new SessionsRepository(db), now, principals);
  const admins = new AdminsService(db, now);
  const members = new MembersService(db, now);
  const settings = new SettingsRepository(db);
  const keptSettings = new KeptSettings(settings, bus, (error) =>
    app.log.warn({ err: error }, 'settings change not published'),
  );
  await keptSettings.start();
  app.addHook('onClose', async () => keptSettings.stop());
  const services: AppServices = {
    db,
    bus,
    limits,
    instances,
    now,
    admins,
    members,
    sessions,
    principals,
    settings,
    keptSettings,
  };
  app.decorate('services', services);
  const lazyHashes = new LazyHashes(bus, (error) =>
    app.log.warn({ err: error }, 'lazy data change not published'),
  );
  await lazyHashes.start();
  app.addHook('onClose', async () => lazyHashes.stop());
  app.decorate('lazyHashes', lazyHashes);
  registerRouting(app, createAuthenticator({ sessions, admins, members, cache: principals }), {
    checkAnswers: config.checkAnswers,
  });

  // The features, in the order they depend on one another. The audit hook comes before any
  // route, so every admin write of every feature is audited.
  registerAuditFeature(app, { db, now });
  const captcha = registerCaptchaFeature(app, { config });
  registerAuthFeature(app, {
    captcha:
      deps.captcha === undefined || deps.captcha === 'image'
        ? imageLoginCaptcha(captcha)
        : deps.captcha,
  });
  // Multipart (upload chunks) is registered by the files feature, next to its routes.
  const files = await registerLibraryFeature(app, { config, db, settings, now });
  const { verify } = registerVerifyFeature(app, { config, captcha });
  registerAccountFeature(app, {
    verify,
    ownsImage: (memberId, path) =>
      files.files.owns({ owner: { type: 'member', id: memberId }, library: 'image' }, path),
  });
  registerAdminsFeature(app);
  registerRolesFeature(app);
  registerMembersFeature(app);
  registerUploadSettingsFeature(app, { config, minChunkSize: files.storage.minChunkSize });
  registerDashboardFeature(app);
  const aigcCache = new ShortCache(SETTINGS_TTL_MS);
  // Rooms and models both change what members see of rooms (the "Rooms" lazy data set).
  const clearAigcCache = async () => {
    aigcCache.clear();
    await lazyHashes.changed(ROOMS_LAZY_KEY);
  };
  const providers = await registerAiFeature(app, { config, onChange: clearAigcCache });
  const rooms = registerRoomsFeature(app, { models: providers, onChange: clearAigcCache });
  const chat = await registerChatFeature(app, {
    providers,
    rooms,
    images: libraryImages(db, files.storage),
    cache: aigcCache,
    storage: files.storage,
    embeddingModel: config.embeddingModel,
    options: {
      ...deps.aigc,
      documents: { pageMs: config.testReadPageMs, ...deps.aigc?.documents },
    },
  });
  const site = registerSiteSettingsFeature(app, {
    defaultSiteName: DEFAULT_SITE_NAME,
    allowFrames: (origin) => pageHeaders.allowFrames(origin),
  });
  registerAppFeature(app, { config, extraConfig: () => site.publicConfig() });
  app.decorate('features', { captcha, files, providers, chat });
  registerOps(app, {
    config,
    db,
    bus,
    storage: files.storage,
    liveAnswers: () => chat.generations.size,
    streamWatchers: () => chat.streams.watching,
  });

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
