import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './testing/processes';
import { adminCount, countBanners, SIMULTANEOUS } from './startup.testing';

/**
 * DESIGN 2 on the embedded default: processes started together on one empty SQLite file all come
 * up with one first admin. (Its own file, so it runs beside the PostgreSQL ones.)
 */
describe('processes on one SQLite file', () => {
  let root: string;
  const running: ServerProcess[] = [];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'atrium-sqlite-instances-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    rmSync(root, { recursive: true, force: true });
  });

  it(`${SIMULTANEOUS} first starts at once all listen, with one admin and one banner`, async () => {
    const database = join(root, 'shared', 'atrium.db');
    const servers = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, (_, i) => {
        const dataDir = join(root, `instance-${i}`);
        mkdirSync(join(dataDir, 'web'), { recursive: true });
        return startServerProcess({
          ATRIUM_DATA_DIR: dataDir,
          ATRIUM_WEB_DIR: join(dataDir, 'web'),
          DATABASE_URL: database,
          ATRIUM_SECRET: 'sqlite-instances-secret',
        });
      }),
    );
    running.push(...servers);
    expect(countBanners(servers)).toBe(1);
    const password = /Admin account created: admin \/ (\S+)/.exec(
      servers.map((s) => s.output()).join(''),
    )?.[1];
    expect(password).toBeDefined();
    for (const server of servers) expect(await adminCount(server, password ?? '')).toBe(1);
  }, 90_000);
});
