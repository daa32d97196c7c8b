import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InitResponse } from '@atrium/shared/contract/files';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../../db/index';
import { Instances } from '../../../instances/instances';
import { createStorage, type Storage, type StorageOptions } from '../../../storage/index';
import { startS3rver, type RunningS3 } from '../../../storage/s3rver.testing';
import {
  canRunInstances,
  createDeployment,
  multiInstanceEnv,
  postJson,
  type Deployment,
  type ServerProcess,
} from '../../../testing/processes';
import { filesDb } from '../library.tables';
import {
  chunkSize,
  MiB,
  md5,
  sendChunk,
  sendChunkHead,
  takeoverBoundMs,
  textFile,
  timedChunk,
  until,
  headersOf,
  type TestFile,
  type Sending,
} from './upload.instances.testing';
import { orphanGraceMs, uploadTtlMs, UploadService } from './upload.service';

/**
 * DESIGN 2 on real server processes sharing PostgreSQL, Redis and one storage (a shared folder,
 * or S3 through s3rver): chunks alternate between instances without the hashes being redone, an
 * instance killed with -9 while it receives a chunk or finishes an upload is taken over within
 * 5 s, no acknowledged chunk is lost, and the sweeper frees what a crash left behind.
 */

/** The seconds this suite measured, printed once at the end for the record. */
const measured: Record<string, number> = {};

/**
 * The suite for one kind of storage. Each kind has its own test file (`upload.instances.local`,
 * `upload.instances.s3`), so the two run side by side on their own schemas.
 */
export function uploadsAcrossInstances(kind: 'local' | 's3'): void {
  describe.runIf(canRunInstances)(`uploads across instances on ${kind} storage`, () => {
    let deployment: Deployment;
    let s3: RunningS3 | undefined;
    let sharedDir: string | undefined;
    let storage: Storage;
    let client: pg.Client;
    let db: Db;
    let a: ServerProcess;
    let b: ServerProcess;
    let tokenA: string;
    let tokenB: string;

    const login = async (server: ServerProcess) => {
      const answer = await postJson<{ token: string }>(server, '/admin/api/auth/login', {
        username: 'admin',
        password: deployment.env.ATRIUM_ADMIN_PASSWORD,
      });
      expect(answer.json.code, answer.json.msg).toBe(0);
      return answer.json.data.token;
    };
    const call = async <T>(server: ServerProcess, token: string, body: Record<string, unknown>) =>
      (await postJson<T>(server, '/admin/data/file_manager/file', body, headersOf(token))).json;
    const init = (server: ServerProcess, token: string, file: TestFile) =>
      call<InitResponse>(server, token, {
        action: 'init',
        name: file.name,
        type: 'text/plain',
        size: file.data.length,
        md5: file.md5,
      });
    const session = async (file: TestFile) => {
      const rows = await client.query<{
        id: number;
        hashed_chunks: number;
        md5_state: string | null;
        status: string;
        instance_id: string | null;
        verified_blob: string | null;
        staging_key: string;
      }>(
        'select id, hashed_chunks, md5_state, status, instance_id, verified_blob, staging_key from upload_sessions where name = $1',
        [file.name],
      );
      return rows.rows[0];
    };
    /**
     * The key of the blob an instance finishing the upload moved its bytes to, once it has: the
     * bytes at the key and gone from staging. On S3 a move is a copy, then the staging object's
     * deletion; killed between the two, the instance left the bytes in staging, and the one taking
     * over rightly stores them under a name of its own (the copy is swept as an orphan).
     */
    const movedBlob = (file: TestFile) =>
      until('the bytes moved to the blob the session names', async () => {
        const row = await session(file);
        const name = row?.verified_blob;
        const key = name ? `blobs/${name.slice(0, 2)}/${name}` : undefined;
        if (!row || !key || !(await storage.stat(key))) return undefined;
        return (await storage.stat(row.staging_key)) ? undefined : key;
      });
    const claims = async () =>
      (await client.query<{ idx: number }>('select idx from upload_chunk_claims')).rows;
    /** The served bytes of a finished upload, read from an instance. */
    const served = async (server: ServerProcess, path: string) => {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    /** Holds a table so writes to it wait (reads go on), until the returned function runs. */
    const holdWrites = async (table: 'upload_chunks' | 'file_blobs') => {
      const holder = new pg.Client({ connectionString: deployment.env.DATABASE_URL });
      await holder.connect();
      await holder.query('begin');
      await holder.query(`lock table ${table} in exclusive mode`);
      return async () => {
        await holder.query('rollback');
        await holder.end();
      };
    };
    /** A live instance A: the one a test killed is replaced by a new process. */
    const liveA = async () => {
      if (a.child.exitCode !== null || a.child.signalCode !== null) {
        a = await deployment.start();
        tokenA = await login(a);
      }
    };
    const storedKeys = async (area: 'staging' | 'blobs') => {
      const keys: string[] = [];
      for await (const page of storage.list(area)) keys.push(...page.map((o) => o.key));
      return keys;
    };

    beforeAll(async () => {
      let options: StorageOptions;
      let env: Record<string, string>;
      if (kind === 's3') {
        s3 = await startS3rver();
        options = { driver: 's3', ...s3.options };
        env = s3.env;
      } else {
        sharedDir = mkdtempSync(join(tmpdir(), 'atrium-shared-storage-'));
        options = { driver: 'local', root: sharedDir };
        env = { STORAGE_DRIVER: 'local', STORAGE_DIR: sharedDir };
      }
      storage = createStorage(options);
      deployment = await createDeployment(env);
      [a, b] = await Promise.all([deployment.start(), deployment.start()]);
      [tokenA, tokenB] = await Promise.all([login(a), login(b)]);
      client = new pg.Client({ connectionString: deployment.env.DATABASE_URL });
      await client.connect();
      db = createDb(
        { kind: 'postgres', url: multiInstanceEnv.databaseUrl ?? '' },
        {
          searchPath: deployment.schema,
        },
      );
    }, 120_000);

    afterAll(async () => {
      await client?.end();
      await db?.destroy();
      await deployment?.cleanup();
      await s3?.stop();
      if (sharedDir) rmSync(sharedDir, { recursive: true, force: true });
      console.log(`takeover seconds (${kind}):`, JSON.stringify(measured));
    });

    it('alternates chunks between instances, each continuing the hashes the other saved', async () => {
      const file = textFile('alternating.txt', 4 * chunkSize + 12_345);
      expect((await init(a, tokenA, file)).data).toMatchObject({ chunkUploaded: 0, chunks: 5 });
      // Sent one after another as the upload button does, each answer as soon as it comes.
      for (let index = 0; index < file.chunks - 1; index += 1) {
        const [server, token] = index % 2 === 0 ? [a, tokenA] : [b, tokenB];
        const answer = await sendChunk(server, token, file, index);
        expect(answer, answer.msg).toMatchObject({ code: 0, data: { chunkUploaded: index + 1 } });
      }
      // Folded from the bytes each instance received, each continuing the state the other saved: on
      // S3 the parts cannot be read back, so this is the only way the state reaches the last chunk.
      const hashed = await until('the chunks before the last hashed', async () => {
        const row = await session(file);
        return row && row.hashed_chunks === file.chunks - 1 ? row : undefined;
      });
      expect(hashed.md5_state).not.toBeNull();
      const last = await sendChunk(a, tokenA, file, file.chunks - 1);
      expect(last.code, last.msg).toBe(0);
      const path = last.data.path ?? '';
      expect(path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/[^/]+\.txt$/);
      const bytes = await served(b, path);
      expect(md5(bytes)).toBe(file.md5);
      expect(bytes.equals(file.data)).toBe(true);
    }, 120_000);

    it('a chunk a killed instance was receiving is taken by another within 5 s; no acknowledged chunk is lost', async () => {
      await liveA();
      const file = textFile('killed-mid-chunk.txt', 4 * chunkSize + 777);
      expect((await init(a, tokenA, file)).code).toBe(0);
      expect((await sendChunk(a, tokenA, file, 0)).data.chunkUploaded).toBe(1);
      expect((await sendChunk(b, tokenB, file, 1)).data.chunkUploaded).toBe(2);

      let release: (() => Promise<void>) | undefined;
      let killedAt: number;
      try {
        let cut: Sending;
        if (kind === 'local') {
          // Local disk writes a chunk while it arrives, under a claim taken as soon as its fields
          // are in: A is killed with part of chunk 2 received.
          cut = sendChunkHead(a, tokenA, file, 2, 2 * MiB);
        } else {
          // S3 takes the claim once the whole chunk is in and holds it while the part is stored and
          // recorded: A is killed with the part stored and the record waiting on the database.
          release = await holdWrites('upload_chunks');
          cut = sendChunkHead(a, tokenA, file, 2, 0);
          cut.req.end();
        }
        await until('A claims chunk 2', async () =>
          (await claims()).length === 1 ? true : undefined,
        );
        await a.kill();
        killedAt = performance.now();
        await expect(cut.answer).rejects.toThrow();
      } finally {
        await release?.();
      }

      const taken = await timedChunk(killedAt, b, tokenB, file, 2);
      expect(taken.answer, taken.answer.msg).toMatchObject({ code: 0, data: { chunkUploaded: 3 } });
      measured.killedMidChunk = Number(taken.seconds.toFixed(2));
      console.log(`${kind}: chunk taken over ${taken.seconds.toFixed(2)} s after the kill`);
      expect(taken.seconds * 1000).toBeLessThanOrEqual(takeoverBoundMs);

      // Every chunk acknowledged before and after the kill is still held.
      expect((await init(b, tokenB, file)).data).toMatchObject({ chunkUploaded: 3, chunks: 5 });

      if (kind === 'local') {
        // A request that ends without its chunk (the socket closed) lets go of its claim in a live
        // instance at once: the chunk sent again is taken, not refused after a wait.
        const gone = sendChunkHead(b, tokenB, file, 3, MiB);
        await until('B claims chunk 3', async () =>
          (await claims()).length === 1 ? true : undefined,
        );
        gone.req.destroy();
        await expect(gone.answer).rejects.toThrow();
        await until('the claim is given up', async () =>
          (await claims()).length === 0 ? true : undefined,
        );
      }
      expect((await sendChunk(b, tokenB, file, 3)).data.chunkUploaded).toBe(4);
      const last = await sendChunk(b, tokenB, file, 4);
      expect(last.code, last.msg).toBe(0);
      const bytes = await served(b, last.data.path ?? '');
      expect(md5(bytes)).toBe(file.md5);
      expect(bytes.equals(file.data)).toBe(true);
    }, 120_000);

    it('an upload a killed instance was finishing is finished by another within 5 s, its blob filed once', async () => {
      await liveA();
      const file = textFile('killed-finishing.txt', 2 * chunkSize + 4321);
      expect((await init(b, tokenB, file)).code).toBe(0);
      for (const index of [0, 1]) expect((await sendChunk(b, tokenB, file, index)).code).toBe(0);
      // A verifies the file, records the blob its bytes go to and moves them there, then waits to
      // record the blob: killed right there, the worst moment (the bytes have left staging).
      const release = await holdWrites('file_blobs');
      let killedAt: number;
      let key: string;
      try {
        void sendChunk(a, tokenA, file, 2).catch(() => undefined);
        key = await movedBlob(file);
        expect(await session(file)).toMatchObject({ status: 'finishing' });
        await a.kill();
        killedAt = performance.now();
      } finally {
        await release();
      }

      // The resume does not start over: the last chunk, sent again, completes the upload.
      expect((await init(b, tokenB, file)).data).toMatchObject({ chunkUploaded: 2, chunks: 3 });
      const done = await timedChunk(killedAt, b, tokenB, file, 2);
      expect(done.answer, done.answer.msg).toMatchObject({
        code: 0,
        data: { data: { size: file.data.length } },
      });
      measured.killedWhileFinishing = Number(done.seconds.toFixed(2));
      console.log(`${kind}: finish taken over ${done.seconds.toFixed(2)} s after the kill`);
      expect(done.seconds * 1000).toBeLessThanOrEqual(takeoverBoundMs);

      const bytes = await served(b, done.answer.data.path ?? '');
      expect(md5(bytes)).toBe(file.md5);
      expect(bytes.equals(file.data)).toBe(true);
      const blobs = await client.query<{ ref_count: number }>(
        'select ref_count from file_blobs where storage_key = $1',
        [key],
      );
      expect(blobs.rows).toEqual([{ ref_count: 1 }]);
      expect(await session(file)).toBeUndefined();
      // Kept in the library, so the sweep below has a blob it must not touch.
      const saved = await call(b, tokenB, {
        action: 'save',
        path: done.answer.data.path,
        name: file.name,
        size: file.data.length,
        categoryId: 0,
      });
      expect(saved.code, saved.msg).toBe(0);
    }, 120_000);

    it('the sweeper frees a blob a crash left behind that nothing refers to, and only that', async () => {
      await liveA();
      const file = textFile('abandoned-after-crash.txt', chunkSize + 99);
      expect((await init(b, tokenB, file)).code).toBe(0);
      expect((await sendChunk(b, tokenB, file, 0)).code).toBe(0);
      const release = await holdWrites('file_blobs');
      let key: string;
      try {
        void sendChunk(a, tokenA, file, 1).catch(() => undefined);
        key = await movedBlob(file);
        await a.kill();
      } finally {
        await release();
      }
      // Nobody comes back for it.

      const instances = new Instances(db);
      await instances.start();
      const sweeper = new UploadService({ db: filesDb(db), storage, instances });
      try {
        // Past the grace period but while its session lives, the blob is that session's to file.
        const soon = await sweeper.sweep(Date.now() + orphanGraceMs + 60_000);
        expect(soon).toMatchObject({ sessions: 0, orphans: 0 });
        expect(await storage.stat(key)).toBeDefined();
        // A day on, the abandoned session goes, and with it the last reference to those bytes.
        const late = await sweeper.sweep(Date.now() + uploadTtlMs + 60_000);
        expect(late).toMatchObject({ sessions: 1, orphans: 1 });
      } finally {
        await sweeper.close();
        await instances.stop();
      }
      expect(await storage.stat(key)).toBeUndefined();
      expect(await storedKeys('staging')).toEqual([]);
      // What the database still refers to is all that is stored, the library's file among it.
      const blobs = await client.query<{ storage_key: string }>(
        'select storage_key from file_blobs',
      );
      const library = await client.query<{ storage_key: string }>(
        'select b.storage_key from files f join file_blobs b on b.id = f.blob_id',
      );
      expect(library.rows.length).toBe(1);
      expect((await storedKeys('blobs')).sort()).toEqual(
        blobs.rows.map((r) => r.storage_key).sort(),
      );
      expect(blobs.rows).toEqual(expect.arrayContaining(library.rows));
    }, 120_000);
  });
}
