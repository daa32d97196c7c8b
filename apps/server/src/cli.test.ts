import type { AreaName } from '@atrium/shared/areas';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XsrfCookie, XsrfHeader } from '@atrium/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from './cli';
import { createDb } from './db/index';
import { SettingsRepository } from './db/settings.repository';
import { SECRET_VERIFIER_SETTING, secretVerifier } from './security/secret-verifier';

let dataDir: string;
let running: CliResult[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'atrium-cli-'));
});
afterEach(async () => {
  for (const r of running) await r.server?.stop();
  running = [];
  rmSync(dataDir, { recursive: true, force: true });
});

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const result = await runCli(argv, {
    env: {
      ATRIUM_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ATRIUM_PASSWORD_COST: 'test',
      ...env,
    },
    cwd: dataDir,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  });
  running.push(result);
  return { result, out: out.join(''), err: err.join('') };
}

async function httpLogin(port: number, area: AreaName, username: string, password: string) {
  const base = `http://127.0.0.1:${port}`;
  const res = await fetch(
    `${base}${area === 'admin' ? '/admin/api/auth/login' : '/api/auth/login'}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'is-ajax': 'true' },
      body: JSON.stringify({ username, password }),
    },
  );
  return {
    res,
    json: (await res.json()) as { code: number; msg: string; data: { token: string } },
  };
}

async function adminConfig(port: number, token: string) {
  const res = await fetch(`http://127.0.0.1:${port}/admin/api/app/config`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'admin-api-token': token,
      cookie: `${XsrfCookie}=x`,
      [XsrfHeader]: 'x',
    },
    body: '{}',
  });
  return (await res.json()) as { data: { user: { username: string }; rules: string[] } };
}

describe('start', () => {
  it('creates the first admin, prints its password once, and listens on the real port', async () => {
    const first = await run(['start']);
    expect(first.result.code).toBe(0);
    const password = /Admin account created: admin \/ (\S+)/.exec(first.out)?.[1];
    expect(password).toMatch(/^[\w-]{16}$/);
    const port = first.result.server?.port ?? 0;
    expect(port).toBeGreaterThan(0);
    expect(first.out).toContain(`Atrium listening on http://localhost:${port}`);

    const { res, json } = await httpLogin(port, 'admin', 'admin', String(password));
    expect(json.code).toBe(0);
    expect(res.headers.get('admin-api-token')).toBe(json.data.token);
    expect((await adminConfig(port, json.data.token)).data.rules).toEqual(['*']);
    await first.result.server?.stop();

    const second = await run(['start']);
    expect(second.out).not.toContain('Admin account created');
    expect(second.out).not.toContain(String(password));
    expect(second.out).toMatch(/Atrium listening on http:\/\/localhost:\d+/);
    expect(
      (await httpLogin(second.result.server?.port ?? 0, 'admin', 'admin', String(password))).json
        .code,
    ).toBe(0);
  });

  it('uses ATRIUM_ADMIN_PASSWORD for the first admin without printing it', async () => {
    const { result, out } = await run(['start'], { ATRIUM_ADMIN_PASSWORD: 'chosen password 1' });
    expect(out).toContain('Admin account created: admin (password from ATRIUM_ADMIN_PASSWORD)');
    expect(out).not.toContain('chosen password 1');
    expect(
      (await httpLogin(result.server?.port ?? 0, 'admin', 'admin', 'chosen password 1')).json.code,
    ).toBe(0);
  });

  it('refuses to start with another secret than the database has, saying what to set', async () => {
    const secret = 'the-deployment-secret-1';
    const first = await run(['start'], { ATRIUM_SECRET: secret });
    expect(first.result.code).toBe(0);
    await first.result.server?.stop();

    const other = await run(['start'], { ATRIUM_SECRET: 'another-secret-entirely' });
    expect(other.result).toEqual({ code: 1 });
    expect(other.err).toContain(
      'ATRIUM_SECRET does not match the secret this database was first started with',
    );
    expect(other.err).toContain(
      'Every instance on one database must run with the same ATRIUM_SECRET',
    );

    const unset = await run(['start']);
    expect(unset.result).toEqual({ code: 1 });
    expect(unset.err).toContain(
      `No ATRIUM_SECRET is set, so this instance used the secret generated in ${join(dataDir, 'secret')}`,
    );

    expect((await run(['start'], { ATRIUM_SECRET: secret })).result.code).toBe(0);
  });

  it('records the secret of a database that has no verifier yet on its next start', async () => {
    // `migrate` leaves what an install from before verifiers has: tables, no verifier. It must
    // not record one itself: it may run from a machine without the instances' ATRIUM_SECRET.
    expect((await run(['migrate'])).result.code).toBe(0);
    const db = createDb({ kind: 'sqlite', file: join(dataDir, 'atrium.db') });
    try {
      const settings = new SettingsRepository(db);
      expect(await settings.get(SECRET_VERIFIER_SETTING)).toBeUndefined();

      expect((await run(['start'])).result.code).toBe(0);
      const generated = readFileSync(join(dataDir, 'secret'), 'utf8');
      const stored = await settings.get(SECRET_VERIFIER_SETTING);
      expect(stored).toBe(secretVerifier(generated));
      expect(JSON.stringify(stored)).not.toContain(generated);
    } finally {
      await db.destroy();
    }
    const other = await run(['start'], { ATRIUM_SECRET: 'another-secret-entirely' });
    expect(other.result.code).toBe(1);
  });

  it('refuses to boot on bad configuration, naming every bad variable', async () => {
    const { result, err } = await run(['start'], {
      PORT: 'http',
      LOG_LEVEL: 'chatty',
      REDIS_URL: 'localhost',
    });
    expect(result.code).toBe(1);
    expect(result.server).toBeUndefined();
    expect(err).toContain('Invalid configuration');
    for (const name of ['PORT', 'LOG_LEVEL', 'REDIS_URL']) expect(err).toContain(`${name}: `);
  });
});

describe('create-admin', () => {
  it('creates a limited admin with a role of the same name holding the rules', async () => {
    const created = await run([
      'create-admin',
      '--username',
      'editor',
      '--password',
      'editor pass 1',
      '--rules',
      'system/role, data/*',
    ]);
    expect(created.result.code).toBe(0);
    expect(created.out).toContain('Admin created: editor');

    const { result, out } = await run(['start']);
    // The founder is still created beside an admin made before the first start.
    expect(out).toMatch(/Admin account created: admin \/ \S+/);
    const port = result.server?.port ?? 0;
    const { json } = await httpLogin(port, 'admin', 'editor', 'editor pass 1');
    expect(json.code).toBe(0);
    const config = await adminConfig(port, json.data.token);
    expect(config.data.user.username).toBe('editor');
    expect(config.data.rules.sort()).toEqual(['data/*', 'system/role']);
  });

  it('creates a plain admin without a role', async () => {
    expect(
      (await run(['create-admin', '--username', 'plain', '--password', 'plain pass 1'])).result
        .code,
    ).toBe(0);
    const { result } = await run(['start']);
    const { json } = await httpLogin(result.server?.port ?? 0, 'admin', 'plain', 'plain pass 1');
    expect((await adminConfig(result.server?.port ?? 0, json.data.token)).data.rules).toEqual([]);
  });

  it('refuses a taken username and missing arguments', async () => {
    await run(['create-admin', '--username', 'dup', '--password', 'dup pass 12']);
    const again = await run(['create-admin', '--username', 'dup', '--password', 'dup pass 12']);
    expect(again.result.code).toBe(1);
    expect(again.err).toContain('dup is taken');
    const missing = await run(['create-admin', '--username', 'x']);
    expect(missing.result.code).toBe(2);
    expect(missing.err).toContain('--password');
    const unknown = await run(['create-admin', '--user', 'x']);
    expect(unknown.result.code).toBe(2);
  });
});

describe('migrate and usage', () => {
  it('migrates once, then reports the database is up to date', async () => {
    const first = await run(['migrate']);
    expect(first.out).toContain('2026_11_21_0001_foundation');
    expect((await run(['migrate'])).out).toContain('Database is up to date');
  });

  it('explains unknown commands', async () => {
    const { result, err } = await run(['serve']);
    expect(result.code).toBe(2);
    expect(err).toContain('Unknown command: serve');
    expect(err).toContain('create-admin --username U --password P');
  });
});
