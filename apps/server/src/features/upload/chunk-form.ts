import type { IncomingMessage } from 'node:http';

/**
 * Reads the multipart/form-data body of one upload chunk (SPEC 7.2: a few short text fields and
 * one file part). The body is read once into a buffer of its declared length and split with
 * native searches, with no copying per piece: on a 5 MiB chunk this costs a fraction of a
 * streaming parser (busboy spends more CPU per chunk than receiving and writing it).
 */

export interface ChunkForm {
  fields: Record<string, string>;
  /** A view into the body buffer, valid until `release` is called. */
  file: Buffer | undefined;
  /** Gives the body buffer back for the next chunk; call once, when `file` is no longer read. */
  release(): void;
}

/**
 * Body buffers for reuse: a fresh 5 MiB buffer per chunk makes V8 collect garbage far more
 * often than the chunk is worth, so a few are kept and handed out again.
 */
class BodyPool {
  private readonly free: Buffer[] = [];

  constructor(private readonly keep: number) {}

  take(size: number): Buffer {
    const index = this.free.findIndex((buffer) => buffer.length >= size);
    if (index >= 0) {
      const [buffer] = this.free.splice(index, 1);
      if (buffer) return buffer;
    }
    return Buffer.allocUnsafeSlow(size);
  }

  give(buffer: Buffer): void {
    if (this.free.length < this.keep) this.free.push(buffer);
  }
}

const pool = new BodyPool(4);

/** A malformed or oversized form; its message names what is wrong. */
export class ChunkFormError extends Error {
  constructor(
    message: string,
    /** The file part (or the whole body) is over the limit. */
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'ChunkFormError';
  }
}

export interface ChunkFormLimits {
  /** Largest file part. */
  fileSize: number;
  fields: number;
  fieldSize: number;
}

const maxHeaderBytes = 2048;
/** Room for the parts around the file: the text fields with their headers, and the delimiters. */
const overheadOf = (limits: ChunkFormLimits) => limits.fields * (limits.fieldSize + maxHeaderBytes) + 4096;

function boundaryOf(contentType: string | undefined): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new ChunkFormError('body: multipart/form-data without a boundary');
  return boundary;
}

/** The body and the pooled buffer it sits in (undefined when it was not pooled). */
async function readBody(
  req: AsyncIterable<Buffer> & Pick<IncomingMessage, 'headers'>,
  max: number,
): Promise<{ body: Buffer; pooled: Buffer | undefined }> {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) throw new ChunkFormError('body: bad Content-Length');
    if (length > max) throw new ChunkFormError('file: the chunk is larger than the chunk size', true);
    const pooled = pool.take(length);
    try {
      let offset = 0;
      for await (const piece of req) {
        if (offset + piece.length > length) throw new ChunkFormError('body: longer than its Content-Length');
        piece.copy(pooled, offset);
        offset += piece.length;
      }
      if (offset !== length) throw new ChunkFormError('body: shorter than its Content-Length');
    } catch (error) {
      pool.give(pooled);
      throw error;
    }
    return { body: pooled.subarray(0, length), pooled };
  }
  const pieces: Buffer[] = [];
  let total = 0;
  for await (const piece of req) {
    total += piece.length;
    if (total > max) throw new ChunkFormError('file: the chunk is larger than the chunk size', true);
    pieces.push(piece);
  }
  return { body: Buffer.concat(pieces, total), pooled: undefined };
}

function dispositionParam(header: string, param: string): string | undefined {
  const match = new RegExp(`;\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ?? new RegExp(`;\\s*${param}=([^;\\s]+)`, 'i').exec(header);
  return match?.[1]?.replace(/\\(.)/g, '$1');
}

/** `stream` is the request body; `headers` are the request's (Content-Type, Content-Length). */
export async function readChunkForm(
  stream: AsyncIterable<Buffer>,
  headers: IncomingMessage['headers'],
  limits: ChunkFormLimits,
): Promise<ChunkForm> {
  const boundary = boundaryOf(headers['content-type']);
  const overhead = overheadOf(limits);
  const { body, pooled } = await readBody(Object.assign(stream, { headers }), limits.fileSize + overhead);
  let released = false;
  const release = () => {
    if (released || !pooled) return;
    released = true;
    pool.give(pooled);
  };
  try {
    return { ...parse(body, boundary, limits, overhead), release };
  } catch (error) {
    release();
    throw error;
  }
}

function parse(
  body: Buffer,
  boundary: string,
  limits: ChunkFormLimits,
  overhead: number,
): { fields: Record<string, string>; file: Buffer | undefined } {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  let fieldCount = 0;

  // The first delimiter may open the body without the leading CRLF.
  let cursor = body.indexOf(delimiter.subarray(2));
  if (cursor < 0) throw new ChunkFormError('body: no multipart part found');
  cursor += delimiter.length - 2;
  for (;;) {
    if (body[cursor] === 0x2d && body[cursor + 1] === 0x2d) break;
    if (body[cursor] !== 0x0d || body[cursor + 1] !== 0x0a) throw new ChunkFormError('body: malformed multipart delimiter');
    const headersStart = cursor + 2;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    if (headersEnd < 0 || headersEnd - headersStart > maxHeaderBytes) throw new ChunkFormError('body: malformed part headers');
    const headers = body.toString('utf8', headersStart, headersEnd);
    const contentStart = headersEnd + 4;
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = dispositionParam(disposition, 'name');
    if (!name) throw new ChunkFormError('body: a part has no name');
    const isFile = dispositionParam(disposition, 'filename') !== undefined;
    // The parts after the file are at most `overhead` bytes, so the file's closing delimiter lies
    // in the body's last `overhead` bytes: no need to scan the megabytes of the file for it.
    const searchFrom = isFile ? Math.max(contentStart, body.length - overhead) : contentStart;
    const contentEnd = body.indexOf(delimiter, searchFrom);
    if (contentEnd < 0) throw new ChunkFormError('body: a part is not closed');
    if (isFile) {
      if (name !== 'file') throw new ChunkFormError(`${name}: unexpected file part; send the chunk as "file"`);
      if (file) throw new ChunkFormError('file: send one chunk per request');
      if (contentEnd - contentStart > limits.fileSize) throw new ChunkFormError('file: the chunk is larger than the chunk size', true);
      file = body.subarray(contentStart, contentEnd);
    } else {
      fieldCount += 1;
      if (fieldCount > limits.fields) throw new ChunkFormError('body: too many form fields');
      if (contentEnd - contentStart > limits.fieldSize) throw new ChunkFormError(`${name}: too long`);
      fields[name] = body.toString('utf8', contentStart, contentEnd);
    }
    cursor = contentEnd + delimiter.length;
  }
  return { fields, file };
}
