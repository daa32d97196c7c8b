import { createHmac, timingSafeEqual } from 'node:crypto';
import { Limits } from '@atrium/shared';
import type { TrashResponse } from '@atrium/shared/contract/files';

const hourMs = 3_600_000;

export type TrashLinkKind = 'file' | 'thumb';

/** The parts of a signed trash address, as its route receives them. */
export interface TrashLinkParams {
  kind: string;
  id: string;
  expires: string;
  signature: string;
}

/**
 * Addresses of trashed files (issue 28): a deleted file is no longer served at its public address,
 * but whoever may see the trash gets, with its listing, addresses signed with the instance secret
 * that open the file and its thumbnail for one to two hours. The expiry is rounded up to the hour
 * so a listing reloaded within the hour keeps the same addresses and the browser's cached images.
 */
export class TrashLinks {
  constructor(
    private readonly secret: string,
    private readonly clock: () => number = Date.now,
  ) {}

  private signature(kind: TrashLinkKind, id: number, expires: number): string {
    return createHmac('sha256', this.secret)
      .update(`trash-link:${kind}:${id}:${expires}`)
      .digest('base64url');
  }

  /** The address (without origin) of trashed file `id`'s bytes or thumbnail; `name` ends it. */
  address(kind: TrashLinkKind, id: number, name: string): string {
    const expires = Math.ceil((this.clock() + hourMs) / hourMs) * hourMs;
    const signature = this.signature(kind, id, expires);
    return `/data/trash/${kind}/${id}/${expires}/${signature}/${encodeURIComponent(name)}`;
  }

  /** The trashed file id a signed address names, when its signature holds and it has not expired. */
  verify(params: TrashLinkParams): { kind: TrashLinkKind; id: number } | undefined {
    const { kind } = params;
    if (kind !== 'file' && kind !== 'thumb') return undefined;
    if (!/^\d{1,15}$/.test(params.id) || !/^\d{1,15}$/.test(params.expires)) return undefined;
    const id = Number(params.id);
    const expires = Number(params.expires);
    if (expires <= this.clock()) return undefined;
    const expected = Buffer.from(this.signature(kind, id, expires));
    const given = Buffer.from(params.signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { kind, id };
  }

  /** The trash's answer with every file opening (and previewing) at a signed address. */
  present(answer: TrashResponse, origin: string): TrashResponse {
    return {
      ...answer,
      records: answer.records.map((record) => {
        const { thumbnail: _public, ...rest } = record;
        const image = (Limits.imageExtensions as readonly string[]).includes(record.type);
        return {
          ...rest,
          fullPath: origin + this.address('file', record.id, record.filename),
          ...(image
            ? { thumbnail: origin + this.address('thumb', record.id, record.filename) }
            : {}),
        };
      }),
    };
  }
}
