import type { FastifyBaseLogger } from 'fastify';
import { every } from '../../every';
import type { Instances } from '../../instances/instances';
import { readAll, type Storage } from '../../storage/index';
import type { ChatDocsRepository, NewPassage } from './chat-docs.repository';
import type { Embedder } from './embeddings';
import { message, type MessageRef } from '@atrium/shared/messages/catalogue';
import { storedError } from '../../http/stored-message';
import { Extractor, UnreadableDocument } from './extractor';
import { READER_HEAP_MB, READER_RSS_GROWTH_MB } from './reading-limits.mjs';

/** Larger files are not read: their text would not fit any prompt, and parsing them is costly. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

/** What the member reads when a file cannot be read, stored to be read in their language. */
export const cannotRead = (reason: MessageRef): string =>
  storedError(message('docs.cannotRead', { reason }));

/** Passages indexed between two turns of the event loop (and progress writes). */
const INDEX_STEP = 200;
/**
 * Times a job may be taken before it fails: a document whose reader keeps stopping without a
 * verdict (its thread or its instance dies) is not tried for ever.
 */
export const MAX_ATTEMPTS = 3;

export interface ExtractionOptions {
  /** How often each instance looks for queued jobs and jobs of dead instances. */
  pollMs: number;
  /** A document the reader has not finished after this long fails. */
  timeoutMs: number;
  /** The reader thread's heap, MB (READER_HEAP_MB). */
  readerHeapMb: number;
  /**
   * A pause after each page read (ATRIUM_TEST_READ_PAGE_MS): kill tests read a small file at a
   * pace that lets the kill land mid-read. 0 on a site.
   */
  pageMs: number;
}

const defaultOptions: ExtractionOptions = {
  pollMs: 1_000,
  timeoutMs: 120_000,
  readerHeapMb: READER_HEAP_MB,
  pageMs: 0,
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** This job is no longer this instance's (another took it for dead): stop quietly. */
class Lost extends Error {}

/**
 * This instance's heartbeat is late (a stalled database, a busy event loop): others may count it
 * dead, so it must stop, and put the job back unless another instance has taken it already.
 */
class Late extends Error {}

/**
 * Reading documents' text off the request path (issue 18). Each stored blob is read once: a job
 * row per blob, claimed by one instance at a time. The claim names the instance and lasts as
 * long as its heartbeat: every instance polls for queued jobs and for running ones whose
 * instance died (kill -9), and takes them over from the start. The parsing runs on a worker
 * thread (extractor.ts); the passages are indexed in steps, yielding to the event loop, so
 * reading a large file never holds up a request or an answer.
 */
export class Extraction {
  private readonly extractor: Extractor;
  private readonly options: ExtractionOptions;
  private stopPolling: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly deps: {
      repo: ChatDocsRepository;
      storage: Storage;
      instances: Instances;
      log: FastifyBaseLogger;
      now: () => number;
      embedder: () => Promise<Embedder | undefined>;
      options?: Partial<ExtractionOptions>;
    },
  ) {
    this.options = { ...defaultOptions, ...deps.options };
    this.extractor = new Extractor(
      this.options.timeoutMs,
      { heapMb: this.options.readerHeapMb, rssGrowthMb: READER_RSS_GROWTH_MB },
      this.options.pageMs,
    );
  }

  start(): void {
    this.stopPolling = every(
      this.options.pollMs,
      async () => this.kick(),
      (error) => this.deps.log.warn({ err: error }, 'document reading failed'),
    );
  }

  /** Runs queued jobs now (after an attach), unless this instance is already at it. */
  kick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves once no job is queued or held by a dead instance (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        if (this.closed || !this.deps.instances.holdsOn()) return;
        const { repo, instances, now, log } = this.deps;
        // Nothing runs here between two jobs: a job still named after this instance was left
        // by a reader that stopped, and goes back to the queue.
        const left = await repo.requeue(instances.id, now());
        if (left > 0)
          log.warn({ jobs: left }, 'document reading jobs left running were queued again');
        const job = await repo.claim(instances.id, instances.aliveSince(), now());
        if (!job) break;
        if (job.attempts > MAX_ATTEMPTS) {
          await this.fail(job.blobId, 0, message('docs.stoppedTooOften', { times: MAX_ATTEMPTS }));
          continue;
        }
        await this.run(job.blobId, job.ext);
      }
    } while (this.again);
  }

  /** One blob: read, split, index, and (with an embedding model) give passages vectors. */
  private async run(blobId: number, ext: string): Promise<void> {
    const { repo, instances, log, now } = this.deps;
    const me = instances.id;
    let lastWrite = -Infinity;
    const report = async (progress: number, pages?: number, force = false) => {
      // A write every quarter second at most (a monotonic clock: this is pacing, not a time).
      if (!force && performance.now() - lastWrite < 250) return;
      lastWrite = performance.now();
      const fields = pages === undefined ? { progress } : { progress, pages };
      if (!instances.holdsOn()) throw new Late();
      if (!(await repo.progress(blobId, me, fields, now()))) throw new Lost();
    };
    let pages = 0;
    try {
      // A job taken over from a dead instance starts again from nothing.
      await repo.clearPassages(blobId);
      const blob = await repo.blob(blobId);
      if (!blob) throw new UnreadableDocument(message('docs.gone'));
      if (blob.size > MAX_DOCUMENT_BYTES)
        throw new UnreadableDocument(
          message('docs.tooLarge', { mb: MAX_DOCUMENT_BYTES / 1024 / 1024 }),
        );
      const bytes = await readAll(
        await this.deps.storage.read(blob.storageKey),
        MAX_DOCUMENT_BYTES,
      );
      if (!bytes)
        throw new UnreadableDocument(
          message('docs.tooLarge', { mb: MAX_DOCUMENT_BYTES / 1024 / 1024 }),
        );
      await report(5, undefined, true);

      // Reading is the first 60 %: a PDF reports each page. The reader's thread splits and
      // indexes the text too; this thread only stores the passages, a step at a time.
      let progressWrite = Promise.resolve();
      let lostWhileReading: unknown;
      const extracted = await this.extractor.extract(ext, bytes, (done, total) => {
        pages = done;
        progressWrite = progressWrite
          .then(() => report(5 + Math.floor((55 * done) / Math.max(total, 1)), done))
          .catch((error: unknown) => {
            lostWhileReading ??= error;
          });
      });
      await progressWrite;
      if (lostWhileReading !== undefined) throw lostWhileReading;
      pages = extracted.pages;

      const passages: NewPassage[] = extracted.passages.map((passage, seq) => ({
        seq,
        ...passage,
      }));
      if (passages.length === 0) {
        throw new UnreadableDocument(
          ext === 'pdf' ? message('docs.noTextScanned') : message('docs.noText'),
        );
      }
      await report(60, pages, true);

      for (let i = 0; i < passages.length; i += INDEX_STEP) {
        await repo.insertPassages(blobId, passages.slice(i, i + INDEX_STEP));
        await report(60 + Math.floor((30 * (i + INDEX_STEP)) / passages.length), pages);
        await turn();
      }

      const embeddingModel = await this.embed(blobId, report);
      const ended = await repo.finish(
        blobId,
        me,
        { status: 'done', pages, passages: passages.length, error: '', embeddingModel },
        now(),
      );
      if (!ended) throw new Lost();
    } catch (error) {
      if (error instanceof Lost) {
        log.info({ blobId }, 'another instance took over reading a document');
        return;
      }
      if (error instanceof Late) {
        // Back to the queue, unless another instance took it (then the row is not ours).
        log.warn({ blobId }, 'reading a document stopped: this instance missed its heartbeats');
        await repo.requeue(me, now(), blobId).catch(() => undefined);
        return;
      }
      // Shutting down: the job stays running on this instance, whose row goes with it, so the
      // next instance to look takes it over.
      if (this.closed) return;
      if (error instanceof UnreadableDocument) {
        log.info({ blobId, detail: error.message }, 'a document cannot be read');
        await this.fail(blobId, pages, error.reason);
        return;
      }
      // No verdict on the file (the reader's thread crashed, storage or the database failed):
      // the job is tried again, by the next poll here or by another instance, MAX_ATTEMPTS in all.
      log.warn({ err: error, blobId }, 'reading a document failed: it is queued again');
      await repo.clearPassages(blobId).catch(() => undefined);
      await repo
        .requeue(me, now(), blobId)
        .catch((thrown: unknown) => log.warn({ err: thrown, blobId }, 'queueing it again failed'));
    }
  }

  /** Ends a job of this instance as failed, with the reason the member reads. */
  private async fail(blobId: number, pages: number, reason: MessageRef): Promise<void> {
    const { repo, instances, log, now } = this.deps;
    await repo.clearPassages(blobId).catch(() => undefined);
    await repo
      .finish(
        blobId,
        instances.id,
        { status: 'failed', pages, passages: 0, error: cannotRead(reason) },
        now(),
      )
      .catch((thrown: unknown) => log.warn({ err: thrown, blobId }, 'recording a failure failed'));
  }

  /**
   * Gives every passage a vector when an embedding model is configured; answers its name, or ''
   * (no model, or the provider failed: search then goes by words alone, which always works).
   */
  private async embed(
    blobId: number,
    report: (progress: number, pages?: number, force?: boolean) => Promise<void>,
  ): Promise<string> {
    const embedder = await this.deps.embedder();
    if (!embedder) return '';
    const { repo, log } = this.deps;
    const rows = await repo.passagesOf(blobId);
    try {
      for (let i = 0; i < rows.length; i += embedder.batch) {
        const batch = rows.slice(i, i + embedder.batch);
        const vectors = await embedder.embed(batch.map((row) => row.text));
        for (const [j, row] of batch.entries()) {
          const vector = vectors[j];
          if (vector) await repo.setVector(row.id, vector);
        }
        await report(90 + Math.floor((10 * (i + batch.length)) / rows.length));
      }
      return embedder.model;
    } catch (error) {
      if (error instanceof Lost || error instanceof Late) throw error;
      log.warn({ err: error, blobId }, 'document vectors failed: it is searched by words only');
      return '';
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopPolling?.();
    await this.extractor.close();
    await this.running?.catch(() => undefined);
  }
}
