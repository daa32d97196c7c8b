import { Limits } from '@atrium/shared';
import { message, render } from '@atrium/shared/messages/catalogue';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outageOf } from '../../http/unavailable';
import type { ByteRange, Storage } from '../../storage/index';
import { parseDataPath, thumbnailSource } from '@atrium/shared/data-paths';
import type { BlobsRepository } from './blobs.repository';
import { presentationOf, uploadCsp } from './content-types';
import type { Thumbnails } from './thumbnails';
import type { TrashLinkParams, TrashLinks } from './trash-links';
import type { TrashedFileRef } from './trashed-files';
import type { BlobRow } from './library.tables';

/**
 * A file may be replaced in place (issue 17: same address, new bytes), so caches keep a copy but
 * ask first (the ETag names the blob: an unchanged file answers 304 with no body).
 */
const revalidate = 'public, no-cache';
/** A signed trash address is one person's, for an hour or two: kept by that browser only. */
const trashLinkCache = 'private, max-age=3600';
/** Thumbnails are rendered from the whole image in memory; bigger sources get none. */
const maxThumbnailSource = 64 * 1024 * 1024;

type Parsed = { kind: 'full' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

/** One `bytes=` range (the only kind players and browsers send for media). */
function parseRange(header: string | undefined, size: number): Parsed {
  if (!header) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  let start: number;
  let end: number;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  }
  if (start >= size || start > end) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end } };
}

function securityHeaders(reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Content-Security-Policy', uploadCsp);
  reply.header('Cross-Origin-Resource-Policy', 'same-origin');
}

function notFound(reply: FastifyReply) {
  securityHeaders(reply);
  return reply
    .code(404)
    .type('text/plain; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(`${render(reply.request.lang, message('http.notFound'))}\n`);
}

/** The stored image paths whose thumbnail this is (one for a random address). */
function thumbnailSources(library: string, prefix: string, file: string): string[] {
  const source = thumbnailSource(`/data/thumb/${library}/${prefix}/${file}`);
  if (source) {
    const parsed = parseDataPath(source);
    return parsed && (Limits.imageExtensions as readonly string[]).includes(parsed.ext)
      ? [source]
      : [];
  }
  // A content address's thumbnail swapped the image's extension for .webp.
  const legacy = parseDataPath(`/data/${library}/${prefix}/${file}`);
  if (!legacy?.sha256 || legacy.ext !== 'webp') return [];
  return Limits.imageExtensions.map((ext) => `/data/${library}/${prefix}/${legacy.sha256}.${ext}`);
}

/** Saves under the file's own name; `filename` keeps an ASCII fallback for old clients. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A blob's grid thumbnail (rendered once, then read back), or 404 for what can't have one. */
async function sendThumb(
  req: FastifyRequest,
  reply: FastifyReply,
  thumbnails: Thumbnails,
  blob: BlobRow,
  cacheControl: string,
) {
  if (blob.size > maxThumbnailSource) return notFound(reply);
  const etag = `"${blob.name}-thumb"`;
  if (req.headers['if-none-match'] === etag) {
    securityHeaders(reply);
    return reply.code(304).header('Cache-Control', cacheControl).header('ETag', etag).send();
  }
  let thumb: Buffer;
  try {
    thumb = await thumbnails.get(blob.name, blob.storageKey);
  } catch (error) {
    // A store out of reach is answered 503 + Retry-After by the error handler, not 404.
    if (outageOf(error)) throw error;
    req.log.info({ err: error, blob: blob.name }, 'no thumbnail for this image');
    return notFound(reply);
  }
  securityHeaders(reply);
  return reply
    .header('Cache-Control', cacheControl)
    .header('ETag', etag)
    .type('image/webp')
    .send(thumb);
}

/**
 * A blob's bytes, whole or the range asked for, shown inline only when its type is safe to
 * render (DESIGN 9); anything else is an attachment saved as `name`.
 */
async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  blob: BlobRow,
  ext: string,
  name: string,
  cacheControl: string,
) {
  const etag = `"${blob.name}"`;
  const shown = presentationOf(ext);
  const notModified = req.headers['if-none-match'] === etag;
  const range = parseRange(req.headers.range, blob.size);
  // Opened before any header is set: a store out of reach answers 503 + Retry-After (the
  // error handler), not a file's headers over an error.
  const body =
    notModified || range.kind === 'unsatisfiable'
      ? undefined
      : await storage.read(blob.storageKey, range.kind === 'range' ? range.range : undefined);
  securityHeaders(reply);
  reply
    .header('Cache-Control', cacheControl)
    .header('ETag', etag)
    .header('Accept-Ranges', 'bytes')
    .header('Content-Disposition', shown.inline ? 'inline' : attachment(name))
    .type(shown.contentType);
  if (notModified || !body) {
    if (notModified) return reply.code(304).send();
    return reply.code(416).header('Content-Range', `bytes */${blob.size}`).send();
  }
  if (range.kind === 'range') {
    const { start, end } = range.range;
    reply
      .code(206)
      .header('Content-Range', `bytes ${start}-${end}/${blob.size}`)
      .header('Content-Length', end - start + 1);
    return reply.send(body);
  }
  reply.header('Content-Length', blob.size);
  return reply.send(body);
}

interface FileParams {
  library: string;
  prefix: string;
  file: string;
}

/** `GET /data/...`: uploaded files and their thumbnails (DESIGN 9). */
export function registerServeRoutes(
  app: FastifyInstance,
  deps: {
    storage: Storage;
    blobs: BlobsRepository;
    thumbnails: Thumbnails;
    trash: { links: TrashLinks; file: (id: number) => Promise<TrashedFileRef | undefined> };
  },
): void {
  app.get(
    '/data/thumb/:library/:prefix/:file',
    async (req: FastifyRequest<{ Params: FileParams }>, reply) => {
      const { library, prefix, file } = req.params;
      const blob = await deps.blobs.blobAt(thumbnailSources(library, prefix, file));
      if (!blob) return notFound(reply);
      return sendThumb(req, reply, deps.thumbnails, blob, revalidate);
    },
  );

  app.get(
    '/data/:library/:prefix/:file',
    async (req: FastifyRequest<{ Params: FileParams }>, reply) => {
      const { library, prefix, file } = req.params;
      const path = `/data/${library}/${prefix}/${file}`;
      const parsed = parseDataPath(path);
      if (!parsed) return notFound(reply);
      const blob = await deps.blobs.blobAt([path]);
      if (!blob) return notFound(reply);
      const name = parsed.sha256 ? `${parsed.sha256.slice(0, 16)}.${parsed.ext}` : file;
      return sendFile(req, reply, deps.storage, blob, parsed.ext, name, revalidate);
    },
  );

  // A trashed file, at the signed address its trash listing gave (trash-links.ts): its old public
  // address stays gone.
  app.get(
    '/data/trash/:kind/:id/:expires/:signature/:file',
    async (req: FastifyRequest<{ Params: TrashLinkParams & { file: string } }>, reply) => {
      const link = deps.trash.links.verify(req.params);
      const trashed = link ? await deps.trash.file(link.id) : undefined;
      const blob = trashed ? await deps.blobs.getBlob(trashed.blobId) : undefined;
      if (!link || !trashed || !blob || blob.refCount <= 0) return notFound(reply);
      if (link.kind === 'thumb') {
        if (!(Limits.imageExtensions as readonly string[]).includes(trashed.ext))
          return notFound(reply);
        return sendThumb(req, reply, deps.thumbnails, blob, trashLinkCache);
      }
      return sendFile(req, reply, deps.storage, blob, trashed.ext, trashed.name, trashLinkCache);
    },
  );
}
