import type { ChunkFields, Library } from '@atrium/shared/contract/files';
import type { Db } from '../../../db/index';
import { hashToken } from '../../../http/tokens';
import { UploadGrantsRepository } from './upload-grants.repository';
import { checkMd5, parseStrictInteger } from './upload-rules';

/**
 * A grant lapses once its upload has sent nothing for this long: WebUploader gives up on a
 * request after 2 minutes, and a retry hashes the file again before its `init`.
 */
const uploadGrantIdleMs = 10 * 60_000;
/** A grant's last use is written at most this often, not on every chunk. */
const touchEveryMs = 60_000;

/** The file an upload call names: its session key, less the owner the session implies. */
export interface GrantedFile {
  library: Library;
  md5: string;
  size: number;
  name: string;
}

/** What a token rotated away may still do: send these files, for this sign-in session. */
export interface Grant {
  sessionId: number;
  files: GrantedFile[];
}

/**
 * Upload grants (DESIGN 4): a token that sent `init` or a chunk of a file may go on sending
 * that file's `init` and chunks after the page rotated it away, while the upload keeps going
 * and its sign-in session lives. It can do nothing else and is never answered a new token.
 */
export class UploadGrants {
  private readonly repo: UploadGrantsRepository;

  constructor(
    db: Db,
    private readonly clock: () => number,
  ) {
    this.repo = new UploadGrantsRepository(db);
  }

  /** Notes that `token`, of session `sessionId`, is sending `file`. */
  async note(token: string, sessionId: number, file: GrantedFile): Promise<void> {
    const now = this.clock();
    await this.repo.record(
      { tokenHash: hashToken(token), sessionId, ...file, usedAt: now },
      now - touchEveryMs,
    );
  }

  /** Forgets the session's grants whose uploads went quiet (called when one is opened). */
  dropStale(sessionId: number): Promise<void> {
    return this.repo.dropStale(sessionId, this.clock() - uploadGrantIdleMs);
  }

  /** The live grants of a token, or undefined when it has none. */
  async find(token: string): Promise<Grant | undefined> {
    const rows = await this.repo.active(hashToken(token), this.clock() - uploadGrantIdleMs);
    const first = rows[0];
    if (!first) return undefined;
    const files = rows.map(({ library, md5, size, name }) => ({ library, md5, size, name }));
    return { sessionId: first.sessionId, files };
  }
}

/** Whether the grant lets its token send `file`. */
export function grantCovers(grant: Grant, file: GrantedFile | undefined): boolean {
  return (
    file !== undefined &&
    grant.files.some(
      (held) =>
        held.library === file.library &&
        held.md5 === file.md5 &&
        held.size === file.size &&
        held.name === file.name,
    )
  );
}

/** The file a chunk's fields name, or undefined when they are not valid (the chunk is refused). */
export function fileOfChunk(library: Library, fields: ChunkFields): GrantedFile | undefined {
  try {
    return {
      library,
      md5: checkMd5(fields.md5),
      size: parseStrictInteger('size', fields.size),
      name: fields.name,
    };
  } catch {
    return undefined;
  }
}
