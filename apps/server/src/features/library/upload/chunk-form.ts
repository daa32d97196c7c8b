import type { IncomingMessage } from 'node:http';
import { fieldName, message, type MessageRef } from '@atrium/shared/messages/catalogue';

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
  /**
   * The sink that received exactly the bytes of `file`, all written, when the body was read
   * with a tap that opened one; undefined otherwise (the caller then stores `file` itself).
   */
  written: FileSink | undefined;
  /**
   * Whether the whole ArrayBuffer under `file` is this form's own (a pooled body buffer), so a
   * reader may take it away (transfer it to a thread) and hand it back through `release`.
   */
  transferable: boolean;
  /**
   * Gives the body buffer back for the next chunk; call once, when `file` is no longer read,
   * passing the buffer if it was transferred away and came back.
   */
  release(returned?: ArrayBuffer): void;
}

/** Where the file's bytes go while the rest of the body is still arriving. */
export interface FileSink {
  /** The exact size the file part must have; no more than this is ever written. */
  readonly length: number;
  /** Writes `data` at byte `at` of the file. Calls may overlap; each covers its own range. */
  write(data: Buffer, at: number): Promise<void>;
  /**
   * Called once, after the last write settled. `kept`: the form hands the sink on as `written`
   * (its bytes may be recorded); otherwise it is dropped and what it wrote counts for nothing.
   */
  close(kept: boolean): Promise<void>;
}

/**
 * Lets the caller put the file's bytes in place while they arrive, as a plain HTTP server
 * streams a body to disk: `open` gets the text fields sent before the file part and answers a
 * sink, or undefined to leave the file in the buffer only. Nothing written through the sink is
 * trusted until the whole body has been read and checked (see `ChunkForm.written`).
 */
export interface FileTap {
  open(fields: Record<string, string>): Promise<FileSink | undefined>;
}

/**
 * Body buffers for reuse: a fresh 5 MiB buffer per chunk makes V8 collect garbage far more
 * often than the chunk is worth, so a few are kept and handed out again.
 */
export class BodyPool {
  private readonly free: Buffer[] = [];

  constructor(private readonly keep: number) {}

  take(size: number): Buffer {
    const index = this.free.findIndex((buffer) => buffer.length >= size);
    if (index >= 0) {
      const [buffer] = this.free.splice(index, 1);
      if (buffer) return buffer;
    }
    // Rounded up: bodies of one upload differ by a few bytes (the chunk number, the name), and
    // a buffer sized to the first would fit none of the slightly longer ones after it.
    return Buffer.allocUnsafeSlow(Math.ceil(size / poolGrain) * poolGrain);
  }

  give(buffer: Buffer): void {
    if (this.free.length < this.keep) this.free.push(buffer);
  }
}

/** Pooled body buffers are sized in steps of this many bytes. */
const poolGrain = 64 * 1024;
const pool = new BodyPool(4);

/**
 * A malformed or oversized form: `ref` tells the person what is wrong (a catalogue message), the
 * error's own message the technical detail (for the log).
 */
export class ChunkFormError extends Error {
  constructor(
    detail: string,
    readonly ref: MessageRef,
    /** The file part (or the whole body) is over the limit. */
    readonly tooLarge = false,
  ) {
    super(detail);
    this.name = 'ChunkFormError';
  }
}

const malformed = (detail: string) => new ChunkFormError(detail, message('files.formMalformed'));
const lengthMismatch = (detail: string) =>
  new ChunkFormError(detail, message('http.contentLengthMismatch'));
const overSize = () =>
  new ChunkFormError(
    'file: the chunk is larger than the chunk size',
    { ...message('files.chunkOverSize'), field: 'file' },
    true,
  );

export interface ChunkFormLimits {
  /** Largest file part. */
  fileSize: number;
  fields: number;
  fieldSize: number;
}

const maxHeaderBytes = 2048;
/** Room for the parts around the file: the text fields with their headers, and the delimiters. */
const overheadOf = (limits: ChunkFormLimits) =>
  limits.fields * (limits.fieldSize + maxHeaderBytes) + 4096;

function boundaryOf(contentType: string | undefined): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw malformed('body: multipart/form-data without a boundary');
  return boundary;
}

/** File bytes are handed to a sink in writes of at least this size (the last one may be smaller). */
export const sinkWriteBytes = 1024 * 1024;

/** A sink being fed from the body buffer while it fills. */
class Feed {
  private handed = 0;
  private readonly writes: Promise<void>[] = [];
  private failed = false;

  constructor(
    readonly sink: FileSink,
    /** Where the file part's content starts in the body. */
    readonly start: number,
  ) {}

  /** Hands over what arrived of the file, in big enough writes unless `final`. */
  feed(body: Buffer, received: number, final: boolean): void {
    const available = Math.min(received - this.start, this.sink.length);
    const ready = available - this.handed;
    if (ready <= 0 || (!final && ready < sinkWriteBytes)) return;
    const at = this.handed;
    this.handed = available;
    this.writes.push(
      this.sink.write(body.subarray(this.start + at, this.start + available), at).catch(() => {
        this.failed = true;
      }),
    );
  }

  /** Waits for every write and closes the sink, kept if all `bytes` were written; whether it was. */
  async settle(bytes: number): Promise<boolean> {
    await Promise.all(this.writes);
    const kept = !this.failed && this.handed === bytes;
    try {
      await this.sink.close(kept);
    } catch {
      return false;
    }
    return kept;
  }
}

/**
 * Whether a body of `length` bytes holds, from `fileStart`, a file part of exactly `fileLength`
 * bytes followed only by the closing delimiter (with or without its final CRLF).
 */
function endsWithFile(
  length: number,
  fileStart: number,
  fileLength: number,
  boundary: string,
): boolean {
  const closing = `\r\n--${boundary}--`.length;
  const rest = length - fileStart - fileLength;
  return rest === closing || rest === closing + 2;
}

/** The body, the pooled buffer it sits in (undefined when not pooled) and the tap's feed. */
async function readBody(
  req: AsyncIterable<Buffer> & Pick<IncomingMessage, 'headers'>,
  max: number,
  tapping: { tap: FileTap; boundary: string; limits: ChunkFormLimits } | undefined,
): Promise<{ body: Buffer; pooled: Buffer | undefined; feed: Feed | undefined }> {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0)
      throw lengthMismatch('body: bad Content-Length');
    if (length > max) throw overSize();
    const pooled = pool.take(length);
    let feed: Feed | undefined;
    // Looking for the file part stops once it is found, or when the head is too long to hold it.
    let seekingHead = tapping !== undefined;
    try {
      let offset = 0;
      for await (const piece of req) {
        if (offset + piece.length > length)
          throw lengthMismatch('body: longer than its Content-Length');
        piece.copy(pooled, offset);
        offset += piece.length;
        if (seekingHead && tapping) {
          const head = readHead(pooled, offset, tapping.boundary, tapping.limits);
          if (head !== 'incomplete') {
            seekingHead = false;
            const sink = head === 'none' ? undefined : await tapping.tap.open(head.fields);
            if (sink && head !== 'none') {
              if (endsWithFile(length, head.fileStart, sink.length, tapping.boundary))
                feed = new Feed(sink, head.fileStart);
              // A body of any other length is refused once read: none of it is written.
              else await sink.close(false);
            }
          }
        }
        feed?.feed(pooled, offset, false);
      }
      if (offset !== length) throw lengthMismatch('body: shorter than its Content-Length');
    } catch (error) {
      if (feed) await feed.settle(-1);
      pool.give(pooled);
      throw error;
    }
    return { body: pooled.subarray(0, length), pooled, feed };
  }
  const pieces: Buffer[] = [];
  let total = 0;
  for await (const piece of req) {
    total += piece.length;
    if (total > max) throw overSize();
    pieces.push(piece);
  }
  return { body: Buffer.concat(pieces, total), pooled: undefined, feed: undefined };
}

function dispositionParam(header: string, param: string): string | undefined {
  const match =
    new RegExp(`;\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ??
    new RegExp(`;\\s*${param}=([^;\\s]+)`, 'i').exec(header);
  return match?.[1]?.replace(/\\(.)/g, '$1');
}

/**
 * `stream` is the request body; `headers` are the request's (Content-Type, Content-Length).
 * With a `tap`, the file's bytes are also handed to the sink it opens while the body arrives.
 */
export async function readChunkForm(
  stream: AsyncIterable<Buffer>,
  headers: IncomingMessage['headers'],
  limits: ChunkFormLimits,
  tap?: FileTap,
): Promise<ChunkForm> {
  const boundary = boundaryOf(headers['content-type']);
  const overhead = overheadOf(limits);
  const tapping = tap ? { tap, boundary, limits } : undefined;
  const { body, pooled, feed } = await readBody(
    Object.assign(stream, { headers }),
    limits.fileSize + overhead,
    tapping,
  );
  let released = false;
  // Taken now: a transferred buffer reads as empty here until it comes back.
  const pooledSize = pooled?.buffer.byteLength;
  const release = (returned?: ArrayBuffer) => {
    if (released || !pooled) return;
    released = true;
    if (returned === undefined) pool.give(pooled);
    else if (returned.byteLength === pooledSize) pool.give(Buffer.from(returned));
  };
  try {
    const parsed = parse(body, boundary, limits, overhead);
    feed?.feed(body, body.length, true);
    // The sink's bytes count only if they are exactly the file the whole body turned out to hold.
    const exact =
      feed !== undefined &&
      parsed.file !== undefined &&
      parsed.file.byteOffset === body.byteOffset + feed.start &&
      parsed.file.length === feed.sink.length;
    const complete = feed ? await feed.settle(exact ? feed.sink.length : -1) : false;
    return {
      ...parsed,
      written: exact && complete ? feed?.sink : undefined,
      transferable: pooled !== undefined,
      release,
    };
  } catch (error) {
    if (feed) await feed.settle(-1);
    release();
    throw error;
  }
}

/**
 * The text fields before the file part and where its content starts, once `received` bytes of
 * the body hold them; 'incomplete' while they may still arrive; 'none' when there is no file
 * part to tap early (malformed, or the head is longer than a chunk form's head can be). The
 * whole body is parsed again by `parse`, which alone decides what the form holds.
 */
function readHead(
  body: Buffer,
  received: number,
  boundary: string,
  limits: ChunkFormLimits,
): { fields: Record<string, string>; fileStart: number } | 'incomplete' | 'none' {
  const overhead = overheadOf(limits);
  const view = body.subarray(0, Math.min(received, overhead));
  const pending = received < overhead ? 'incomplete' : 'none';
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields: Record<string, string> = {};
  let cursor = view.indexOf(delimiter.subarray(2));
  if (cursor < 0) return pending;
  cursor += delimiter.length - 2;
  for (let count = 0; count <= limits.fields; count += 1) {
    if (cursor + 2 > view.length) return pending;
    if (view[cursor] !== 0x0d || view[cursor + 1] !== 0x0a) return 'none';
    const headersStart = cursor + 2;
    const headersEnd = view.indexOf('\r\n\r\n', headersStart);
    if (headersEnd < 0) return headersStart + maxHeaderBytes < view.length ? 'none' : pending;
    const disposition =
      /^content-disposition:(.*)$/im.exec(view.toString('utf8', headersStart, headersEnd))?.[1] ??
      '';
    const name = dispositionParam(disposition, 'name');
    if (!name) return 'none';
    const contentStart = headersEnd + 4;
    if (dispositionParam(disposition, 'filename') !== undefined) {
      return name === 'file' ? { fields, fileStart: contentStart } : 'none';
    }
    const contentEnd = view.indexOf(delimiter, contentStart);
    if (contentEnd < 0) return contentStart + limits.fieldSize < view.length ? 'none' : pending;
    fields[name] = view.toString('utf8', contentStart, contentEnd);
    cursor = contentEnd + delimiter.length;
  }
  return 'none';
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
  if (cursor < 0) throw malformed('body: no multipart part found');
  cursor += delimiter.length - 2;
  for (;;) {
    if (body[cursor] === 0x2d && body[cursor + 1] === 0x2d) break;
    if (body[cursor] !== 0x0d || body[cursor + 1] !== 0x0a)
      throw malformed('body: malformed multipart delimiter');
    const headersStart = cursor + 2;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    if (headersEnd < 0 || headersEnd - headersStart > maxHeaderBytes)
      throw malformed('body: malformed part headers');
    const headers = body.toString('utf8', headersStart, headersEnd);
    const contentStart = headersEnd + 4;
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = dispositionParam(disposition, 'name');
    if (!name) throw malformed('body: a part has no name');
    const isFile = dispositionParam(disposition, 'filename') !== undefined;
    // The parts after the file are at most `overhead` bytes, so the file's closing delimiter lies
    // in the body's last `overhead` bytes: no need to scan the megabytes of the file for it.
    const searchFrom = isFile ? Math.max(contentStart, body.length - overhead) : contentStart;
    const contentEnd = body.indexOf(delimiter, searchFrom);
    if (contentEnd < 0) throw malformed('body: a part is not closed');
    if (isFile) {
      if (name !== 'file')
        throw new ChunkFormError(`${name}: unexpected file part; send the chunk as "file"`, {
          ...message('files.formUnexpectedFile', { name }),
          field: name,
        });
      if (file) {
        throw new ChunkFormError('file: send one chunk per request', {
          ...message('files.formOneChunk'),
          field: 'file',
        });
      }
      if (contentEnd - contentStart > limits.fileSize) throw overSize();
      file = body.subarray(contentStart, contentEnd);
    } else {
      fieldCount += 1;
      if (fieldCount > limits.fields) {
        throw new ChunkFormError('body: too many form fields', message('files.formTooManyFields'));
      }
      if (contentEnd - contentStart > limits.fieldSize)
        throw new ChunkFormError(`${name}: too long`, {
          ...message('validation.tooLong', { field: fieldName(name), max: limits.fieldSize }),
          field: name,
        });
      fields[name] = body.toString('utf8', contentStart, contentEnd);
    }
    cursor = contentEnd + delimiter.length;
  }
  return { fields, file };
}
