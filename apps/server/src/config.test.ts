import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveSecret } from './config';

const cwd = '/srv/atrium';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/atrium/data',
      database: { kind: 'sqlite', file: '/srv/atrium/data/atrium.db' },
      storage: { driver: 'local', dir: '/srv/atrium/data/storage' },
      logLevel: 'info',
      redisUrl: undefined,
      redisPrefix: 'atrium:',
      trustProxy: false,
      logCaptchaAnswers: false,
      checkAnswers: false,
      verifyResendSeconds: 60,
      passwordCost: 'standard',
      testReadPageMs: 0,
    });
    expect(config.webDir.replace(/\/$/, '')).toMatch(/apps\/web\/dist$/);
  });

  it('keeps local storage in STORAGE_DIR when set (instances share one folder)', () => {
    expect(loadConfig({ STORAGE_DIR: 'shared/files' }, cwd).storage).toEqual({
      driver: 'local',
      dir: '/srv/atrium/shared/files',
    });
    expect(loadConfig({ STORAGE_DIR: '/mnt/atrium' }, cwd).storage).toEqual({
      driver: 'local',
      dir: '/mnt/atrium',
    });
  });

  it('treats postgres:// and postgresql:// URLs as PostgreSQL and anything else as a SQLite file', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }, cwd).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }, cwd).database.kind).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'db/site.sqlite' }, cwd).database).toEqual({
      kind: 'sqlite',
      file: '/srv/atrium/db/site.sqlite',
    });
  });

  it('bounds PostgreSQL statements by DATABASE_STATEMENT_TIMEOUT_MS when it is set', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_STATEMENT_TIMEOUT_MS: '8000' }, cwd)
        .database,
    ).toEqual({ kind: 'postgres', url: 'postgres://u@h/db', statementTimeoutMs: 8000 });
    expect(problemsOf({ DATABASE_STATEMENT_TIMEOUT_MS: '5s' })).toEqual([
      'DATABASE_STATEMENT_TIMEOUT_MS: expected a whole number of milliseconds',
    ]);
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        ATRIUM_DATA_DIR: '/var/lib/atrium',
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_PREFIX: 'atrium-staging:',
        ATRIUM_ADMIN_PASSWORD: 'a long password',
        ATRIUM_SECRET: 'x'.repeat(32),
        PUBLIC_URL: 'https://atrium.example.com/',
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'eu-central-1',
        S3_BUCKET: 'files',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'key',
        S3_PUBLIC_URL: 'https://cdn.example.com',
        LOG_LEVEL: 'warn',
        ATRIUM_WEB_DIR: 'web',
        TRUST_PROXY: '1',
        ATRIUM_LOG_CAPTCHA_ANSWERS: 'true',
        ATRIUM_CHECK_ANSWERS: 'true',
        ATRIUM_VERIFY_RESEND_SECONDS: '5',
      },
      cwd,
    );
    expect(config).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      dataDir: '/var/lib/atrium',
      database: { kind: 'sqlite', file: '/var/lib/atrium/atrium.db' },
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'atrium-staging:',
      adminPassword: 'a long password',
      publicUrl: 'https://atrium.example.com',
      storage: {
        driver: 's3',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-central-1',
        bucket: 'files',
        accessKeyId: 'id',
        secretAccessKey: 'key',
        publicUrl: 'https://cdn.example.com',
      },
      logLevel: 'warn',
      webDir: '/srv/atrium/web',
      trustProxy: 1,
      logCaptchaAnswers: true,
      checkAnswers: true,
      verifyResendSeconds: 5,
    });
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      STORAGE_DRIVER: 'ftp',
      LOG_LEVEL: 'loud',
      REDIS_URL: 'http://localhost',
      REDIS_PREFIX: 'two words',
      DATABASE_URL: 'mysql://localhost/db',
      ATRIUM_SECRET: 'short',
      ATRIUM_ADMIN_PASSWORD: 'abc',
      PUBLIC_URL: 'not a url',
      ATRIUM_LOG_CAPTCHA_ANSWERS: 'yes',
      ATRIUM_VERIFY_RESEND_SECONDS: '0',
    });
    const named = problems.map((p) => p.split(':')[0]);
    expect(named.sort()).toEqual(
      [
        'PORT',
        'STORAGE_DRIVER',
        'LOG_LEVEL',
        'REDIS_URL',
        'REDIS_PREFIX',
        'DATABASE_URL',
        'ATRIUM_SECRET',
        'ATRIUM_ADMIN_PASSWORD',
        'PUBLIC_URL',
        'ATRIUM_LOG_CAPTCHA_ANSWERS',
        'ATRIUM_VERIFY_RESEND_SECONDS',
      ].sort(),
    );
    expect(problems.find((p) => p.startsWith('STORAGE_DRIVER'))).toContain('local or s3');
  });

  it('puts every problem in the message that stops boot', () => {
    expect(() => loadConfig({ PORT: '70000', LOG_LEVEL: 'x' }, cwd)).toThrow(
      /Invalid configuration:\n {2}PORT: .*65535\n {2}LOG_LEVEL: /,
    );
  });

  it('requires a bucket with S3 storage, even beside other problems', () => {
    const problems = problemsOf({ STORAGE_DRIVER: 's3', PORT: '-1', S3_ACCESS_KEY_ID: 'id' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['PORT', 'S3_BUCKET', 'S3_SECRET_ACCESS_KEY'].sort(),
    );
  });

  it('starts S3 storage without S3_REGION in us-east-1, as documented', () => {
    for (const region of [undefined, ' ']) {
      const config = loadConfig(
        { STORAGE_DRIVER: 's3', S3_BUCKET: 'files', ...(region ? { S3_REGION: region } : {}) },
        cwd,
      );
      expect(config.storage).toMatchObject({ driver: 's3', bucket: 'files', region: 'us-east-1' });
    }
  });

  it('treats empty variables as unset', () => {
    expect(
      loadConfig({ PORT: '', REDIS_URL: ' ', REDIS_PREFIX: '', DATABASE_URL: '' }, cwd),
    ).toMatchObject({
      port: 8080,
      redisUrl: undefined,
      redisPrefix: 'atrium:',
      database: { kind: 'sqlite' },
    });
  });
});

describe('resolveSecret', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps ATRIUM_SECRET when set', () => {
    const config = loadConfig({ ATRIUM_SECRET: 's'.repeat(20) }, cwd);
    expect(resolveSecret(config).secret).toBe('s'.repeat(20));
  });

  it('creates one private secret file in the data folder and reuses it', () => {
    dir = mkdtempSync(join(tmpdir(), 'atrium-secret-'));
    const config = loadConfig({ ATRIUM_DATA_DIR: dir }, cwd);
    const first = resolveSecret(config).secret;
    const second = resolveSecret(config).secret;
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(second).toBe(first);
    expect(readFileSync(join(dir, 'secret'), 'utf8')).toBe(first);
    expect(statSync(join(dir, 'secret')).mode & 0o077).toBe(0);
  });
});

describe("the operators' endpoints", () => {
  it('keeps no metrics without ATRIUM_METRICS_TOKEN and gives each readiness check 2 s', () => {
    const config = loadConfig({}, cwd);
    expect(config.metricsToken).toBeUndefined();
    expect(config.readyTimeoutMs).toBe(2000);
  });

  it('reads the metrics token and the readiness time-out', () => {
    const config = loadConfig(
      { ATRIUM_METRICS_TOKEN: 'scrape-token-0123456789', ATRIUM_READY_TIMEOUT_MS: '750' },
      cwd,
    );
    expect(config.metricsToken).toBe('scrape-token-0123456789');
    expect(config.readyTimeoutMs).toBe(750);
  });

  it('refuses a short or spaced token and a time-out out of range', () => {
    const named = (env: Record<string, string>) => problemsOf(env).map((p) => p.split(':')[0]);
    expect(named({ ATRIUM_METRICS_TOKEN: 'short' })).toEqual(['ATRIUM_METRICS_TOKEN']);
    expect(named({ ATRIUM_METRICS_TOKEN: 'has a space in it, sixteen+' })).toEqual([
      'ATRIUM_METRICS_TOKEN',
    ]);
    expect(named({ ATRIUM_READY_TIMEOUT_MS: '0' })).toEqual(['ATRIUM_READY_TIMEOUT_MS']);
    expect(named({ ATRIUM_READY_TIMEOUT_MS: 'soon' })).toEqual(['ATRIUM_READY_TIMEOUT_MS']);
  });

  it('hashes passwords at the test cost only when asked, and never with NODE_ENV=production', () => {
    expect(loadConfig({ ATRIUM_PASSWORD_COST: 'test' }, cwd).passwordCost).toBe('test');
    expect(loadConfig({ NODE_ENV: 'production' }, cwd).passwordCost).toBe('standard');
    expect(problemsOf({ ATRIUM_PASSWORD_COST: 'cheap' })).toEqual([
      'ATRIUM_PASSWORD_COST: expected standard or test',
    ]);
    expect(problemsOf({ ATRIUM_PASSWORD_COST: 'test', NODE_ENV: 'production' })).toEqual([
      'ATRIUM_PASSWORD_COST: test is for test servers, not with NODE_ENV=production',
    ]);
  });

  it('paces the document reader only when asked, and never with NODE_ENV=production', () => {
    expect(loadConfig({ ATRIUM_TEST_READ_PAGE_MS: '150' }, cwd).testReadPageMs).toBe(150);
    expect(problemsOf({ ATRIUM_TEST_READ_PAGE_MS: '5000' })).toEqual([
      'ATRIUM_TEST_READ_PAGE_MS: expected 0 to 1000 milliseconds',
    ]);
    expect(problemsOf({ ATRIUM_TEST_READ_PAGE_MS: '150', NODE_ENV: 'production' })).toEqual([
      'ATRIUM_TEST_READ_PAGE_MS: for test servers, not with NODE_ENV=production',
    ]);
  });
});
