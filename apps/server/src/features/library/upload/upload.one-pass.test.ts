import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteQueryNode,
  InsertQueryNode,
  SelectQueryNode,
  sql,
  UpdateQueryNode,
  type KyselyPlugin,
  type RootOperationNode,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDbKinds } from '../../../testing/db';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { Instances } from '../../../instances/instances';
import { filesDb, type Owner } from '../library.tables';
import type { MigrationDb } from '../../../db/columns';
import type { Storage } from '../../../storage/index';
import { down, up } from '../../../db/migrations/2026_11_28_1000_upload_one_pass';
import { FileClient, md5Of, testChunkSize, textFile, useUploadConfig } from '../library.testing';
import { UploadService } from './upload.service';

/** A promise the test lets go of (Node 20 has no Promise.withResolvers). */
function gateOf(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Counts the statements run through a Kysely handle outside transactions, and the transactions
 * it opens. Of the engine's writes outside a transaction, the inserts are chunk claims and the
 * updates saves of the running MD5 on their own (a timer's, when no record carried the state).
 */
class Counter implements KyselyPlugin {
  reads = 0;
  writes = 0;
  hashSaves = 0;
  transactions = 0;
  /** Statements run inside a transaction. */
  inTransactions = 0;
  inside = 0;

  transformQuery({ node }: { node: RootOperationNode }): RootOperationNode {
    if (this.inside > 0) this.inTransactions += 1;
    else if (SelectQueryNode.is(node)) this.reads += 1;
    else if (UpdateQueryNode.is(node)) this.hashSaves += 1;
    else if (InsertQueryNode.is(node) || DeleteQueryNode.is(node)) this.writes += 1;
    return node;
  }

  transformResult<T>({ result }: { result: T }): Promise<T> {
    return Promise.resolve(result);
  }

  reset(): void {
    this.reads = 0;
    this.writes = 0;
    this.hashSaves = 0;
    this.transactions = 0;
    this.inTransactions = 0;
  }
}

describe.each(testDbKinds)('upload in one pass over the bytes (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  /** An upload engine of its own over the app's database and storage, counting its statements. */
  async function countedEngine(
    portable = kind === 'postgres',
    storage: Storage = t.app.features.files.storage,
  ) {
    const counter = new Counter();
    const db = filesDb(t.db).withPlugin(counter);
    const transaction = db.transaction.bind(db);
    // Every transaction the engine opens, and the statements run in it, are told apart.
    db.transaction = () => {
      const builder = transaction();
      const execute = builder.execute.bind(builder);
      builder.execute = async (fn) => {
        counter.transactions += 1;
        counter.inside += 1;
        try {
          return await execute(fn);
        } finally {
          counter.inside -= 1;
        }
      };
      return builder;
    };
    const instances = new Instances(t.db, t.clock.now);
    await instances.start();
    const uploads = new UploadService({
      db,
      storage,
      instances,
      settings: t.app.services.settings,
      portableHashes: portable,
      clock: t.clock.now,
    });
    return {
      counter,
      uploads,
      async close() {
        await uploads.close();
        await instances.stop();
      },
    };
  }

  const owner: Owner = { type: 'admin', id: 0 };
  const fieldsOf = (name: string, data: Buffer, chunks: number, chunk: number) => ({
    name,
    md5: md5Of(data),
    size: String(data.length),
    chunks: String(chunks),
    chunk: String(chunk),
  });
  const sessionRow = (name: string) =>
    filesDb(t.db)
      .selectFrom('uploadSessions')
      .select(['hashedChunks', 'heldChunks', 'contiguousChunks'])
      .where('name', '=', name)
      .executeTakeFirst();

  type Engine = Awaited<ReturnType<typeof countedEngine>>;

  /**
   * Opens an upload of a text file of `chunks` chunks (the last `lastBytes` long) through
   * `engine`; `send` sends a chunk of it through any engine.
   */
  async function upload(engine: Engine, name: string, chunks: number, lastBytes: number) {
    const data = textFile(testChunkSize * (chunks - 1) + lastBytes, name);
    const init = await engine.uploads.init(
      owner,
      'file',
      { action: 'init', name, size: data.length, md5: md5Of(data), type: 'text/plain' },
      '',
    );
    const send = (index: number, via: Engine = engine) =>
      via.uploads.chunk(
        owner,
        'file',
        fieldsOf(name, data, chunks, index),
        Buffer.from(data.subarray(index * testChunkSize, (index + 1) * testChunkSize)),
        '',
      );
    return { data, init, send };
  }

  it('a chunk costs one read of its session and one transaction; the running MD5 rides on the next record', async () => {
    const engine = await countedEngine();
    try {
      const name = 'counted.txt';
      const chunks = 8;
      const { data, init, send } = await upload(engine, name, chunks, 99);
      expect(init).toMatchObject({ chunkUploaded: 0, chunks });
      const perChunk: { reads: number; writes: number; transactions: number }[] = [];
      const hashed: number[] = [];
      let savedAlone = 0;
      for (let index = 0; index < chunks - 1; index += 1) {
        engine.counter.reset();
        expect(await send(index)).toEqual({ chunkUploaded: index + 1, chunks });
        const { reads, writes, transactions, hashSaves } = engine.counter;
        perChunk.push({ reads, writes, transactions });
        savedAlone += hashSaves;
        hashed.push((await sessionRow(name))?.hashedChunks ?? -1);
      }
      // A state is saved on its own only when no record came within 100 ms of it: rarely here.
      expect(savedAlone).toBeLessThan(chunks - 2);
      // Every chunk: the session read once (with whether it holds the chunk), its claim taken (an
      // unlogged table on PostgreSQL), and one transaction recording it with the running MD5.
      expect(perChunk).toEqual(
        Array.from({ length: chunks - 1 }, () => ({ reads: 1, writes: 1, transactions: 1 })),
      );
      // The saved MD5 moved on with the records (a chunk's record carries the chunks before it
      // that are hashed and on disk by then: it lags behind the hash thread and the sync).
      expect(hashed).toEqual([...hashed].sort((x, y) => x - y));
      expect(hashed.at(-1)).toBeGreaterThanOrEqual(1);
      // With no chunk coming, the last state is saved on its own a moment later.
      for (let waited = 0; (await sessionRow(name))?.hashedChunks !== chunks - 1; waited += 20) {
        expect(waited).toBeLessThan(3_000);
        await sleep(20);
      }
      const last = await send(chunks - 1);
      expect(last).toMatchObject({ chunkUploaded: chunks, data: { size: data.length } });
      const served = await t.app.inject({ method: 'GET', url: last.path ?? '' });
      expect(served.rawPayload.equals(data)).toBe(true);
      if (kind === 'postgres') {
        const persistence = await sql<{ relpersistence: string }>`
          select relpersistence from pg_class where relname = 'upload_chunk_claims'
            and relnamespace = current_schema()::regnamespace`.execute(t.db);
        expect(persistence.rows).toEqual([{ relpersistence: 'u' }]);
      }
    } finally {
      await engine.close();
    }
  });

  it('counts held chunks and the gap-free run as chunks land in any order', async () => {
    const engine = await countedEngine();
    try {
      const name = 'shuffled.txt';
      const chunks = 6;
      const { data, send } = await upload(engine, name, chunks, 7);
      // One after another, out of order, one sent twice: each answer counts the gap-free run.
      const answers = [];
      for (const index of [3, 1, 0, 3]) answers.push((await send(index)).chunkUploaded);
      expect(answers).toEqual([0, 0, 2, 2]);
      expect(await sessionRow(name)).toMatchObject({ heldChunks: 3, contiguousChunks: 2 });
      // Two at once: whichever is recorded last sees the other.
      const both = await Promise.all([send(4), send(2)]);
      expect(both.map((a) => a.chunkUploaded)).toContain(5);
      expect(await sessionRow(name)).toMatchObject({ heldChunks: 5, contiguousChunks: 5 });
      const last = await send(5);
      expect(last).toMatchObject({ chunkUploaded: chunks });
      const served = await t.app.inject({ method: 'GET', url: last.path ?? '' });
      expect(served.rawPayload.equals(data)).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it('chunks alternating between two instances each continue the MD5 the other saved, reading nothing back', async () => {
    const [a, b] = [await countedEngine(true), await countedEngine(true)];
    const readBack = vi.spyOn(t.app.features.files.storage, 'readChunk');
    try {
      const name = 'alternating.txt';
      const chunks = 6;
      const { data, send } = await upload(a, name, chunks, 11);
      for (let index = 0; index < chunks - 1; index += 1) {
        const answer = await send(index, index % 2 === 0 ? a : b);
        expect(answer).toEqual({ chunkUploaded: index + 1, chunks });
      }
      // Each fold went on from the state the other instance saved: all but the last are hashed.
      for (let waited = 0; (await sessionRow(name))?.hashedChunks !== chunks - 1; waited += 20) {
        expect(waited).toBeLessThan(5_000);
        await sleep(20);
      }
      expect(readBack).not.toHaveBeenCalled();
      const last = await send(chunks - 1);
      expect(last).toMatchObject({ chunkUploaded: chunks });
      const served = await t.app.inject({ method: 'GET', url: last.path ?? '' });
      expect(served.rawPayload.equals(data)).toBe(true);
    } finally {
      readBack.mockRestore();
      await a.close();
      await b.close();
    }
  });

  it('the saved MD5 never covers a chunk before a sync has put it on disk', async () => {
    // The app's local storage, with its syncs held until the test lets them go.
    const real = t.app.features.files.storage;
    let gate = gateOf();
    let syncs = 0;
    const storage: Storage = Object.create(real, {
      syncStaging: {
        value: async (staging: Parameters<NonNullable<Storage['syncStaging']>>[0]) => {
          await gate.promise;
          syncs += 1;
          await real.syncStaging?.(staging);
        },
      },
    }) as Storage;
    const engine = await countedEngine(true, storage);
    try {
      const name = 'synced.txt';
      const chunks = 5;
      const { data, send } = await upload(engine, name, chunks, 5);
      // Answered while the disk has not caught up: the chunks are held, the MD5 is not saved.
      for (let index = 0; index < chunks - 1; index += 1)
        expect(await send(index)).toEqual({ chunkUploaded: index + 1, chunks });
      await sleep(300);
      expect(await sessionRow(name)).toMatchObject({ heldChunks: 4, hashedChunks: 0 });
      expect(syncs).toBe(0);
      // Once the sync behind them is done, the state of the chunks on disk is saved.
      gate.resolve();
      for (let waited = 0; (await sessionRow(name))?.hashedChunks !== chunks - 1; waited += 20) {
        expect(waited).toBeLessThan(3_000);
        await sleep(20);
      }
      expect(syncs).toBeGreaterThanOrEqual(1);
      gate = gateOf();
      gate.resolve();
      const before = syncs;
      const last = await send(chunks - 1);
      expect(last).toMatchObject({ chunkUploaded: chunks });
      // The complete file was synced once more before it was verified and filed.
      expect(syncs).toBeGreaterThan(before);
      const served = await t.app.inject({ method: 'GET', url: last.path ?? '' });
      expect(served.rawPayload.equals(data)).toBe(true);
    } finally {
      gate.resolve();
      await engine.close();
    }
  });

  it('shares a blob only with bytes equal to its own: an MD5 collision is stored apart', async () => {
    const first = new FileClient(
      t,
      { area: 'member', token: (await t.loginMember()).token },
      'file',
    );
    const second = new FileClient(
      t,
      { area: 'member', token: (await t.loginMember()).token },
      'file',
    );
    const third = new FileClient(
      t,
      { area: 'member', token: (await t.loginMember()).token },
      'file',
    );
    const size = testChunkSize + 333;
    const original = textFile(size, 'original');
    const other = textFile(size, 'other');
    expect(other.equals(original)).toBe(false);
    const a = await first.uploadAndSave({ name: 'a.txt', data: original });
    // The stored blob now claims the other content's MD5, as a crafted collision would.
    const blobOf = async (fileId: number) =>
      filesDb(t.db)
        .selectFrom('files')
        .innerJoin('fileBlobs', 'fileBlobs.id', 'files.blobId')
        .select(['fileBlobs.id', 'fileBlobs.name', 'fileBlobs.refCount'])
        .where('files.id', '=', fileId)
        .executeTakeFirstOrThrow();
    const blobA = await blobOf(a.id);
    await filesDb(t.db)
      .updateTable('fileBlobs')
      .set({ md5: md5Of(other) })
      .where('id', '=', blobA.id)
      .execute();
    const b = await second.uploadAndSave({ name: 'b.txt', data: other });
    const blobB = await blobOf(b.id);
    expect(blobB.id).not.toBe(blobA.id);
    const servedA = await t.app.inject({ method: 'GET', url: a.path });
    const servedB = await t.app.inject({ method: 'GET', url: b.path });
    expect(servedA.rawPayload.equals(original)).toBe(true);
    expect(servedB.rawPayload.equals(other)).toBe(true);
    // Equal bytes from another owner share the blob.
    const c = await third.uploadAndSave({ name: 'c.txt', data: other });
    expect(await blobOf(c.id)).toMatchObject({ id: blobB.id, refCount: 2 });
    // No blob is named by its content: names are random, not the SHA-256.
    for (const [blob, data] of [
      [blobA, original],
      [blobB, other],
    ] as const) {
      expect(blob.name).toMatch(/^[0-9a-f]{64}$/);
      expect(blob.name).not.toBe(sha256(data));
    }
  });

  it('the migration names existing blobs by their SHA-256 and counts the chunks of open sessions', async () => {
    const db = t.db as unknown as MigrationDb;
    const data = randomBytes(64);
    await down(db);
    try {
      await sql`insert into file_blobs (sha256, md5, size, storage_key, ref_count, created_at)
        values (${sha256(data)}, ${md5Of(data)}, 64, ${`blobs/${sha256(data).slice(0, 2)}/${sha256(data)}`}, 1, 1)`.execute(
        db,
      );
      const session = await sql<{ id: number }>`
        insert into upload_sessions (owner_type, owner_id, library, md5, size, name, ext,
          chunk_size, chunks, staging_key, hashed_chunks, status, created_at, updated_at)
        values ('admin', 0, 'file', ${md5Of(data)}, 64, 'migrated.txt', 'txt', 16, 4,
          'staging/migrated', 0, 'open', 1, 1) returning id`.execute(db);
      const id = session.rows[0]?.id;
      for (const idx of [0, 1, 3]) {
        await sql`insert into upload_chunks (session_id, idx, size, etag, instance_id)
          values (${id}, ${idx}, 16, '', '')`.execute(db);
      }
    } finally {
      await up(db);
    }
    const blob = await filesDb(t.db)
      .selectFrom('fileBlobs')
      .select(['name', 'md5'])
      .where('name', '=', sha256(data))
      .executeTakeFirst();
    expect(blob).toEqual({ name: sha256(data), md5: md5Of(data) });
    expect(await sessionRow('migrated.txt')).toEqual({
      hashedChunks: 0,
      heldChunks: 3,
      contiguousChunks: 2,
    });
  });
});
