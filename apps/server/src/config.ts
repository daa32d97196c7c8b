import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { PasswordCost } from './security/passwords';

/**
 * The only reader of process.env (DESIGN 2). Every variable is parsed once; a bad value stops
 * boot with a message that names every bad variable, not just the first.
 */

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof logLevels)[number];

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  /** statementTimeoutMs: DATABASE_STATEMENT_TIMEOUT_MS, the bound on one statement of a call. */
  | { kind: 'postgres'; url: string; statementTimeoutMs?: number };

type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      endpoint: string | undefined;
      region: string;
      bucket: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      /** The bucket's public address: only allowed as a source of images and media (CSP). */
      publicUrl: string | undefined;
    };

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data folder (SQLite file, local storage, generated secret). */
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  /** Starts every Redis key and channel, so deployments sharing one Redis keep apart. */
  redisPrefix: string;
  adminPassword: string | undefined;
  /** Set from ATRIUM_SECRET; when unset, `resolveSecret` keeps one in the data folder. */
  secret: string | undefined;
  /** The address users reach the site at, without a trailing slash. */
  publicUrl: string | undefined;
  storage: StorageConfig;
  logLevel: LogLevel;
  /** Absolute path of the built web app (index.html and admin/index.html). */
  webDir: string;
  /** Which X-Forwarded-For hops to believe for the client address (rate limits, sessions). */
  trustProxy: boolean | number | string[];
  /**
   * Writes every captcha's answer to the log, for browser tests that must answer a picture no
   * program can read. Never on a live site.
   */
  logCaptchaAnswers: boolean;
  /**
   * Parses every successful answer against its call's declared schema and fails the request on
   * a mismatch (DESIGN 3): on in tests and browser tests, off in production (no hot-path cost).
   */
  checkAnswers: boolean;
  /**
   * Seconds before another verification code may go to the same e-mail or phone (SPEC 9: 60).
   * Browser tests shorten it rather than wait a real minute.
   */
  verifyResendSeconds: number;
  /**
   * The model name of an AI model (Admin › AI models) whose provider's `/v1/embeddings` gives
   * documents attached to conversations vectors; unset: documents are searched by words only.
   */
  embeddingModel?: string | undefined;
  /**
   * The bearer token `GET /metrics` asks for (ATRIUM_METRICS_TOKEN); unset: no metrics are kept
   * and the endpoint answers 404.
   */
  metricsToken: string | undefined;
  /** How long each check of `GET /readyz` may take before it counts as failed. */
  readyTimeoutMs: number;
  /**
   * The argon2 cost of new password hashes (ATRIUM_PASSWORD_COST): `standard` unless a test
   * server asks for `test`, which is refused with NODE_ENV=production (security/passwords.ts).
   */
  passwordCost: PasswordCost;
  /**
   * Milliseconds the document reader pauses after each page (ATRIUM_TEST_READ_PAGE_MS, 0 unless
   * set): kill tests read a small PDF slowly enough to kill its reader mid-read. Refused with
   * NODE_ENV=production.
   */
  testReadPageMs: number;
}

/** Thrown by `loadConfig`; its message lists every bad variable, one per line. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Works from src/config.ts and from the bundled dist/main.js: both sit two levels below apps/. */
const defaultWebDir = fileURLToPath(new URL('../../web/dist/', import.meta.url));

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, z.string().optional());
const trueOrFalse = z.preprocess(
  (v) => (typeof v === 'string' ? blankToUndefined(v.toLowerCase()) : v),
  z.enum(['true', 'false'], { error: 'expected true or false' }).default('false'),
);

const httpUrl = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((v) => /^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v), 'expected an http(s) URL')
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
);

const envSchema = z.object({
  PORT: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'expected a port number' })
      .int('expected a port number')
      .min(0, 'expected a port number from 0 to 65535')
      .max(65535, 'expected a port number from 0 to 65535')
      .default(8080),
  ),
  HOST: z.preprocess(blankToUndefined, z.string().default('0.0.0.0')),
  ATRIUM_DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(
        (v) => /^postgres(ql)?:\/\//i.test(v) || /^(sqlite:|file:)/i.test(v) || !v.includes('://'),
        'expected postgres://..., postgresql://... or a SQLite file path',
      )
      .optional(),
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'expected a whole number of milliseconds' })
      .int('expected a whole number of milliseconds')
      .min(100, 'expected 100 to 600000 milliseconds')
      .max(600_000, 'expected 100 to 600000 milliseconds')
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(
        (v) => /^rediss?:\/\//i.test(v) && URL.canParse(v),
        'expected redis://... or rediss://...',
      )
      .optional(),
  ),
  REDIS_PREFIX: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\S{1,100}$/, 'expected up to 100 characters without spaces')
      .default('atrium:'),
  ),
  ATRIUM_ADMIN_PASSWORD: z.preprocess(
    blankToUndefined,
    z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  ),
  ATRIUM_SECRET: z.preprocess(
    blankToUndefined,
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  PUBLIC_URL: httpUrl,
  STORAGE_DRIVER: z.preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.toLowerCase()) : v),
    z.enum(['local', 's3'], { error: 'expected local or s3' }).default('local'),
  ),
  STORAGE_DIR: optionalText,
  S3_ENDPOINT: httpUrl,
  S3_REGION: z.preprocess(blankToUndefined, z.string().default('us-east-1')),
  S3_BUCKET: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_PUBLIC_URL: httpUrl,
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.toLowerCase()) : v),
    z.enum(logLevels, { error: `expected one of ${logLevels.join(', ')}` }).default('info'),
  ),
  ATRIUM_WEB_DIR: optionalText,
  TRUST_PROXY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(
        /^(true|false|\d{1,2}|[\d.:a-fA-F/,\s]+)$/,
        'expected true, false, a hop count or a list of proxy addresses',
      )
      .optional(),
  ),
  ATRIUM_LOG_CAPTCHA_ANSWERS: trueOrFalse,
  ATRIUM_CHECK_ANSWERS: trueOrFalse,
  ATRIUM_VERIFY_RESEND_SECONDS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'expected a whole number of seconds' })
      .int('expected a whole number of seconds')
      .min(1, 'expected 1 to 3600 seconds')
      .max(3600, 'expected 1 to 3600 seconds')
      .default(60),
  ),
  ATRIUM_EMBEDDING_MODEL: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  // Long enough that guessing it over the network is hopeless.
  ATRIUM_METRICS_TOKEN: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\S{16,512}$/, 'expected 16 to 512 characters without spaces')
      .optional(),
  ),
  ATRIUM_READY_TIMEOUT_MS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'expected a whole number of milliseconds' })
      .int('expected a whole number of milliseconds')
      .min(50, 'expected 50 to 30000 milliseconds')
      .max(30_000, 'expected 50 to 30000 milliseconds')
      .default(2000),
  ),
  ATRIUM_PASSWORD_COST: z.preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.toLowerCase()) : v),
    z.enum(['standard', 'test'], { error: 'expected standard or test' }).default('standard'),
  ),
  ATRIUM_TEST_READ_PAGE_MS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'expected a whole number of milliseconds' })
      .int('expected a whole number of milliseconds')
      .min(0, 'expected 0 to 1000 milliseconds')
      .max(1000, 'expected 0 to 1000 milliseconds')
      .default(0),
  ),
  NODE_ENV: optionalText,
});

type Env = Record<string, string | undefined>;

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Parses the environment into a typed Config, or throws ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${String(issue.path[0] ?? 'environment')}: ${issue.message}`);
    }
  }
  // Checked on the raw values so these are listed even when other variables are bad too.
  if (env.STORAGE_DRIVER?.trim().toLowerCase() === 's3') {
    if (!env.S3_BUCKET?.trim()) problems.push('S3_BUCKET: required when STORAGE_DRIVER is s3');
    if (Boolean(env.S3_ACCESS_KEY_ID?.trim()) !== Boolean(env.S3_SECRET_ACCESS_KEY?.trim())) {
      problems.push('S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    }
  }
  if (env.NODE_ENV?.trim() === 'production') {
    if (env.ATRIUM_PASSWORD_COST?.trim().toLowerCase() === 'test')
      problems.push('ATRIUM_PASSWORD_COST: test is for test servers, not with NODE_ENV=production');
    if (Number(env.ATRIUM_TEST_READ_PAGE_MS?.trim() || 0) > 0)
      problems.push('ATRIUM_TEST_READ_PAGE_MS: for test servers, not with NODE_ENV=production');
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;

  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p));
  const dataDir = abs(e.ATRIUM_DATA_DIR);

  let database: DatabaseConfig;
  if (e.DATABASE_URL && /^postgres(ql)?:\/\//i.test(e.DATABASE_URL)) {
    database = {
      kind: 'postgres',
      url: e.DATABASE_URL,
      ...(e.DATABASE_STATEMENT_TIMEOUT_MS === undefined
        ? {}
        : { statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS }),
    };
  } else if (e.DATABASE_URL) {
    database = { kind: 'sqlite', file: abs(e.DATABASE_URL.replace(/^(sqlite|file):(\/\/)?/i, '')) };
  } else {
    database = { kind: 'sqlite', file: join(dataDir, 'atrium.db') };
  }

  const storage: StorageConfig =
    e.STORAGE_DRIVER === 's3'
      ? {
          driver: 's3',
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          bucket: e.S3_BUCKET ?? '',
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          publicUrl: e.S3_PUBLIC_URL,
        }
      : {
          driver: 'local',
          // Instances on local disk share one folder (a network mount), not their data folders.
          dir: e.STORAGE_DIR ? abs(e.STORAGE_DIR) : join(dataDir, 'storage'),
        };

  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    adminPassword: e.ATRIUM_ADMIN_PASSWORD,
    secret: e.ATRIUM_SECRET,
    publicUrl: e.PUBLIC_URL,
    storage,
    logLevel: e.LOG_LEVEL,
    webDir: e.ATRIUM_WEB_DIR ? abs(e.ATRIUM_WEB_DIR) : defaultWebDir,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logCaptchaAnswers: e.ATRIUM_LOG_CAPTCHA_ANSWERS === 'true',
    checkAnswers: e.ATRIUM_CHECK_ANSWERS === 'true',
    verifyResendSeconds: e.ATRIUM_VERIFY_RESEND_SECONDS,
    embeddingModel: e.ATRIUM_EMBEDDING_MODEL,
    metricsToken: e.ATRIUM_METRICS_TOKEN,
    readyTimeoutMs: e.ATRIUM_READY_TIMEOUT_MS,
    passwordCost: e.ATRIUM_PASSWORD_COST,
    testReadPageMs: e.ATRIUM_TEST_READ_PAGE_MS,
  };
}

/** Where an instance without ATRIUM_SECRET keeps the secret it generated. */
export function secretFile(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'secret');
}

/**
 * ATRIUM_SECRET, or a random one kept in `<dataDir>/secret` so a fresh single-instance install
 * needs no setup and keeps its secret across restarts. Several instances must share ATRIUM_SECRET.
 */
export function resolveSecret(config: Config): Config & { secret: string } {
  if (config.secret) return { ...config, secret: config.secret };
  const file = secretFile(config);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { ...config, secret: readFileSync(file, 'utf8').trim() };
}

/** A Config for tests: everything in `dataDir`, quiet logs, no build unless `webDir` is given. */
export function testConfig(dataDir: string, env: Env = {}): Config {
  return loadConfig(
    {
      ATRIUM_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ATRIUM_SECRET: 'test-secret-test-secret',
      ATRIUM_WEB_DIR: join(dataDir, 'web'),
      ATRIUM_CHECK_ANSWERS: 'true',
      // Test sign-ins hash at the test cost; auth.test checks a default config hashes at full cost.
      ATRIUM_PASSWORD_COST: 'test',
      ...env,
    },
    dataDir,
  );
}
