import type { SessionRow } from '../library.tables';

/** Gives a chunk's body buffer back to its owner; with the buffer when it was handed away. */
export type Release = (returned?: ArrayBuffer) => void;

/** A received chunk whose bytes are to be folded into its upload's running MD5. */
export interface HashJob {
  session: SessionRow;
  index: number;
  data: Buffer;
  /** Whether the chunk was stored and recorded: a fold counts only then. */
  stored: Promise<boolean>;
  /** Called once the hash no longer reads `data` (see `handOver`). */
  release: Release;
  /** The whole ArrayBuffer under `data` may go to the hash thread and come back to `release`. */
  handOver: boolean;
}

/**
 * A running MD5 to save with the session: `state` after chunk `to`, to be written only where the
 * saved one still stands at chunk `from` (see `SessionsRepository.saveHashState`).
 */
export interface HashSave {
  from: number;
  to: number;
  state: string;
}

/** A run of folds in this process continuing one another. */
export class Lane {
  valid = true;
  /** The chain of this lane's folds: each settles once its state is in hand (or given up). */
  folded: Promise<void> = Promise.resolve();
  /** Where the saved state stands once the saves taken so far are written. */
  saved: number;
  /** Folded states not taken for a save yet, by the chunk count they stand at, ascending. */
  pending: { to: number; state: string }[] = [];
  /** The fallback save of `pending` when no record carries it. */
  timer: NodeJS.Timeout | undefined;
  /** The chain of saves written on their own. */
  writes: Promise<void> = Promise.resolve();

  constructor(
    /** The hash thread's key: a lane of its own, so dropping a dead lane spares a new one. */
    readonly key: string,
    /** The chunk the next fold of this lane starts at. */
    public next: number,
    /** The state the first fold starts from (the thread keeps it after that). */
    public start: string | undefined,
  ) {
    this.saved = next;
  }
}

/** A job of this process, from its arrival until its fold is done or given up. */
export interface Running {
  index: number;
  /** Its hash is done (or it was given up): the answer of a later chunk may go. */
  hashed: Promise<void>;
  /** Its fold is done and its state in the lane (or it was given up). */
  finished: Promise<void>;
}
