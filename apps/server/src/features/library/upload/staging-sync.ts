import type { Storage } from '../../../storage/index';
import { StorageNotFoundError } from '../../../storage/index';
import type { SessionRow } from '../library.tables';
import { stagingOf } from './staging';

/**
 * Where the staging bytes of a session stand against the disk, on a store that makes chunks
 * durable with `syncStaging` (local disk): each chunk written is numbered, and a sync makes every
 * chunk numbered before it started durable. One sync at a time runs behind the chunks.
 */
class StagingSync {
  /** The number of the last chunk write noted, and up to which number the disk has them. */
  written = 0;
  synced = 0;
  /** Set once a sync covered everything (the upload is complete): all chunks are durable. */
  all = false;
  readonly numberOf = new Map<number, number>();
  running: Promise<void> | undefined;

  durable(index: number): boolean {
    const number = this.numberOf.get(index);
    return this.all || (number !== undefined && number <= this.synced);
  }
}

/**
 * Which staged chunks are on disk, per session, on a store that makes them durable with
 * `syncStaging` (local disk): a saved running MD5 may cover only those (see `RunningHashes`).
 */
export class StagingSyncs {
  private readonly bySession = new Map<number, StagingSync>();

  constructor(
    private readonly storage: Storage,
    private readonly log: { warn(obj: object, msg: string): void } | undefined,
    /** Called after each sync behind the chunks of a session. */
    private readonly synced: (sessionId: number) => void,
  ) {}

  /**
   * Notes that the bytes of chunk `index` are written to staging (received here, or read back):
   * on a store that needs it, a sync makes them durable behind the chunks, and no saved state
   * covers them before (after a crash of the machine the saved MD5 must describe what is on disk).
   */
  written(session: SessionRow, index: number): void {
    if (!this.storage.syncStaging) return;
    const sync = this.bySession.get(session.id) ?? new StagingSync();
    this.bySession.set(session.id, sync);
    sync.written += 1;
    sync.numberOf.set(index, sync.written);
    sync.running ??= this.syncBehind(session, sync);
  }

  private async syncBehind(session: SessionRow, sync: StagingSync): Promise<void> {
    try {
      while (sync.synced < sync.written && this.bySession.get(session.id) === sync) {
        const upTo = sync.written;
        await this.storage.syncStaging?.(stagingOf(session));
        sync.synced = upTo;
        this.synced(session.id);
      }
    } catch (error) {
      // Gone with its session (finished or dropped), or the disk failed: the states wait for the
      // sync at the end, which reports a failing disk to the upload.
      if (!(error instanceof StorageNotFoundError))
        this.log?.warn({ err: error, sessionId: session.id }, 'upload staging sync failed');
    } finally {
      sync.running = undefined;
    }
  }

  /** Whether chunk `index` of the session is on disk (always, on a store without syncs). */
  durable(sessionId: number, index: number): boolean {
    if (!this.storage.syncStaging) return true;
    return this.bySession.get(sessionId)?.durable(index) ?? false;
  }

  /** One last sync: every chunk of the complete upload is on disk (whoever wrote it). */
  async syncAll(session: SessionRow): Promise<void> {
    if (!this.storage.syncStaging) return;
    const sync = this.bySession.get(session.id) ?? new StagingSync();
    this.bySession.set(session.id, sync);
    await sync.running;
    await this.storage.syncStaging(stagingOf(session));
    sync.all = true;
  }

  /** Forgets a session that is finished or dropped. */
  forget(sessionId: number): void {
    this.bySession.delete(sessionId);
  }
}
