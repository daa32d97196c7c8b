import type { AreaName } from '@atrium/shared/areas';
import type { DocumentListResponse, DocumentRecord } from '@atrium/shared/contract/chat-docs';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../testing/doc-fixtures.mjs';
import {
  canRunInstances,
  createDeployment,
  multiInstanceEnv,
  postJson,
  type Deployment,
  type ServerProcess,
} from '../../testing/processes';
import { authHeaders } from '../../testing/test-app';
import { until } from '../chat/chat.testing';

/**
 * Reading a document on real processes: the instance reading it is killed with SIGKILL half-way,
 * and another instance (sharing PostgreSQL, Redis and the storage folder) takes the job over
 * once the dead one's heartbeat is stale, reads the file from the start and finishes it.
 */
const PAGES = 40;
const PAGE_MS = 100;

describe.runIf(canRunInstances)('reading a document whose instance is killed with -9', () => {
  let deployment: Deployment;
  let storageDir: string;

  async function call<T>(
    server: ServerProcess,
    path: string,
    body: unknown,
    as?: { area: AreaName; token: string },
  ): Promise<T> {
    const { json } = await postJson<T>(
      server,
      path,
      body,
      as ? authHeaders(as.area, as.token) : {},
    );
    if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
    return json.data;
  }

  /** Uploads to the member's file library (init, one chunk, save); answers the file's path. */
  async function upload(server: ServerProcess, token: string, name: string, data: Buffer) {
    const headers = authHeaders('member', token);
    const md5 = createHash('md5').update(data).digest('hex');
    const as = { area: 'member' as const, token };
    const url = '/member_data/file_manager/file';
    const init = await call<{ chunkSize: number; chunks: number; path?: string }>(
      server,
      url,
      { action: 'init', name, type: 'application/pdf', size: data.length, md5 },
      as,
    );
    expect(init.chunks).toBe(1);
    const form = new FormData();
    const fields = { id: 'WU_FILE_0', name, type: 'application/pdf', size: String(data.length) };
    for (const [key, value] of Object.entries({ ...fields, chunks: '1', chunk: '0', md5 }))
      form.append(key, value);
    form.append('file', new Blob([new Uint8Array(data)]), name);
    const res = await fetch(`${server.url}${url}`, { method: 'POST', headers, body: form });
    const chunk = (await res.json()) as { code: number; msg: string; data: { path: string } };
    expect(chunk.code, chunk.msg).toBe(0);
    await call(server, url, { action: 'save', path: chunk.data.path, name, size: data.length }, as);
    return chunk.data.path;
  }

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'atrium-docs-storage-'));
    deployment = await createDeployment({
      STORAGE_DRIVER: 'local',
      STORAGE_DIR: storageDir,
      // A small file read at a pace, so the kill lands mid-read without a core spent on parsing
      // (the 1,500-page reading is bench/chat-docs.bench.mjs's).
      ATRIUM_TEST_READ_PAGE_MS: String(PAGE_MS),
    });
  });

  afterAll(async () => {
    await deployment?.cleanup();
    rmSync(storageDir, { recursive: true, force: true });
  });

  it('another instance takes the job over and reads the whole file once', async () => {
    const a = await deployment.start();
    const admin = {
      area: 'admin' as const,
      token: (
        await call<{ token: string }>(a, '/admin/api/auth/login', {
          username: 'admin',
          password: deployment.env.ATRIUM_ADMIN_PASSWORD,
        })
      ).token,
    };
    const room = await call<{ id: number }>(
      a,
      '/admin/api/aigc/chat_room/save',
      { id: 0, title: 'Reading room' },
      admin,
    );
    const member = { username: 'reader', password: 'reader-Pass-123' };
    await call(a, '/admin/api/members/create', member, admin);
    const token = (await call<{ token: string }>(a, '/api/auth/login', member)).token;
    const as = { area: 'member' as const, token };

    // Read in PAGES × PAGE_MS (4 s): the kill lands while it is being read.
    const pages = PAGES;
    const pdf = makePdf(
      Array.from({ length: pages }, (_, i) => `Page ${i + 1} of the long atlas, about place ${i}.`),
    );
    const path = await upload(a, token, 'atlas.pdf', pdf);
    const conversation = await call<{ id: number }>(
      a,
      '/api/aigc/conversation/create',
      { roomId: room.id },
      as,
    );
    await call(
      a,
      '/api/aigc/document/attach',
      { conversationId: conversation.id, paths: [path] },
      as,
    );

    const listed = async (server: ServerProcess): Promise<DocumentRecord | undefined> =>
      (
        await call<DocumentListResponse>(
          server,
          '/api/aigc/document/list',
          { conversationId: conversation.id },
          as,
        )
      ).records[0];
    let seen: DocumentRecord | undefined;
    await until(async () => {
      seen = await listed(a);
      return seen?.status === 'running' && seen.progress >= 10;
    }, 30_000);
    expect(seen?.progress).toBeLessThan(60);
    await a.kill();

    const b = await deployment.start();
    let done: DocumentRecord | undefined;
    await until(async () => {
      done = await listed(b);
      return done?.status === 'done' || done?.status === 'failed';
    }, 60_000);
    expect(done).toMatchObject({ status: 'done', pages, error: '', progress: 100 });

    // Read once from the start: exactly the passages it reports, none left from the dead reader.
    const url = new URL(multiInstanceEnv.databaseUrl ?? '');
    url.searchParams.set('options', `-c search_path=${deployment.schema}`);
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      const count = await db.query<{ n: string; pages: string }>(
        'select count(*) as n, count(distinct page) as pages from chat_doc_passages',
      );
      expect(Number(count.rows[0]?.n)).toBe(done?.passages);
      expect(Number(count.rows[0]?.pages)).toBe(pages);
      const jobs = await db.query<{ status: string; instance_id: string | null }>(
        'select status, instance_id from chat_doc_extracts',
      );
      expect(jobs.rows).toEqual([{ status: 'done', instance_id: null }]);
    } finally {
      await db.end();
    }
    // Two instances started, and its waits bounded at 30 s and 60 s: more than the tier's 60 s on
    // a loaded machine (the full run under a load of 18 timed out here), none of it CPU.
  }, 150_000);
});
