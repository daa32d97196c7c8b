import { Readable } from 'node:stream';
import { fileTypeFromStream } from 'file-type/node';
import { message, type MessageRef } from '@atrium/shared/messages/catalogue';
import { ApiError } from '../../../http/envelope';
import { outageOf } from '../../../http/unavailable';
import type { StagingRef, Storage } from '../../../storage/index';

/**
 * What `file-type` may report for each declared extension. Containers are listed with their
 * close relatives (an .mov is often branded mp4, a .docx is a zip) so real files are not refused.
 */
const magic: Record<string, readonly string[]> = {
  jpg: ['jpg'],
  jpeg: ['jpg'],
  png: ['png', 'apng'],
  gif: ['gif'],
  webp: ['webp'],
  bmp: ['bmp'],
  avif: ['avif'],
  // HEIF stills, whichever brand leads (heic, heix, mif1): `file-type` calls them all heic.
  heic: ['heic'],
  heif: ['heic'],
  mp4: ['mp4', 'm4v', 'mov', '3gp', '3g2', 'f4v'],
  m4v: ['mp4', 'm4v', 'mov'],
  mov: ['mov', 'mp4', 'm4v', '3gp'],
  webm: ['webm', 'mkv'],
  mkv: ['mkv', 'webm'],
  mp3: ['mp3'],
  wav: ['wav'],
  ogg: ['ogg', 'oga', 'opus', 'spx', 'ogx', 'ogv'],
  m4a: ['m4a', 'mp4', 'm4b'],
  flac: ['flac'],
  aac: ['aac'],
  pdf: ['pdf', 'ai'],
  zip: ['zip', 'docx', 'xlsx', 'pptx', 'epub', 'odt', 'ods', 'odp', 'jar', 'apk'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pptx: ['pptx', 'zip'],
  doc: ['cfb'],
  xls: ['cfb'],
  ppt: ['cfb'],
};

/** Formats with no magic number: they must be valid UTF-8 (and JSON must parse). */
const textExtensions = new Set([
  'txt',
  'csv',
  'md',
  'json',
  'svg',
  'html',
  'htm',
  'xml',
  'js',
  'css',
  'log',
]);

/** Bigger JSON is checked for UTF-8 and shape only: parsing it would need that much memory again. */
const maxParsedJson = 16 * 1024 * 1024;

export function isTextExtension(ext: string): boolean {
  return textExtensions.has(ext);
}

/**
 * Sniffs a binary upload's real type from its first bytes; undefined when it matches `ext`,
 * otherwise what it is, as a message.
 */
export async function checkBinaryContent(
  ext: string,
  stream: Readable,
): Promise<MessageRef | undefined> {
  // A damaged container can make the sniffer give up: that is "not recognised", not a crash. A
  // store out of reach is no verdict on the file: the upload is kept for the retry.
  const found = await fileTypeFromStream(stream).catch((error: unknown) => {
    if (outageOf(error)) throw error;
    return undefined;
  });
  stream.destroy();
  const allowed = magic[ext];
  if (allowed) {
    if (!found) return message('files.contentNotType', { ext });
    return allowed.includes(found.ext)
      ? undefined
      : message('files.contentIsOther', { found: found.ext, ext });
  }
  // An extension nobody described: refuse only a recognisable other format.
  if (found && found.ext !== ext) return message('files.contentIsOther', { found: found.ext, ext });
  return undefined;
}

/**
 * Streams a text upload through a strict UTF-8 decoder (and JSON.parse for .json); undefined when
 * it is valid, otherwise what is wrong, as a message.
 */
export async function checkTextContent(
  ext: string,
  size: number,
  stream: Readable,
): Promise<MessageRef | undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parseJson = ext === 'json' && size <= maxParsedJson;
  const pieces: string[] = [];
  let firstChar = '';
  try {
    for await (const part of stream) {
      const text = decoder.decode(part as Uint8Array, { stream: true });
      if (parseJson) pieces.push(text);
      else if (!firstChar) firstChar = text.trimStart().charAt(0);
    }
    const rest = decoder.decode();
    if (parseJson) pieces.push(rest);
  } catch (error) {
    stream.destroy();
    if (outageOf(error)) throw error;
    return message('files.contentNotUtf8', { ext });
  }
  if (ext === 'json') {
    if (parseJson) {
      try {
        JSON.parse(pieces.join(''));
      } catch {
        return message('files.contentNotJson');
      }
    } else if (firstChar !== '{' && firstChar !== '[') {
      return message('files.contentNotJson');
    }
  }
  return undefined;
}

/**
 * The first chunk's bytes as a stream that ends after them, and whether its reader asked for
 * more: with no read-ahead (`highWaterMark` 0) it asks only when it needs bytes past the chunk,
 * where a verdict from the chunk alone could differ from the whole file's.
 */
function firstChunkStream(data: Buffer): { stream: Readable; readPast: () => boolean } {
  let sent = false;
  let past = false;
  const stream = new Readable({
    highWaterMark: 0,
    read() {
      if (sent) past = true;
      sent = true;
      this.push(past ? null : data);
    },
  });
  return { stream, readPast: () => past };
}

/** The characters a JSON text can start with (after white space), as `JSON.parse` takes it. */
const jsonStart = /^[{["\-0-9tfn]/;

/**
 * The content check on the first chunk (issue 28), so a file that is not what its extension says
 * is refused after one chunk instead of after all of them. Only a verdict the whole file would get
 * too: the sniffer's answer when it read no further than this chunk, bytes that are not UTF-8 in
 * a text file, a JSON text that cannot start so; undefined when the rest of the file must decide
 * (the whole file is checked again at the end).
 */
export async function checkFirstChunk(
  { ext, size }: { ext: string; size: number },
  data: Buffer,
): Promise<MessageRef | undefined> {
  const whole = data.length >= size;
  if (isTextExtension(ext)) {
    if (whole) return checkTextContent(ext, size, firstChunkStream(data).stream);
    let text: string;
    try {
      // `stream`: a character cut at the chunk's end is completed by the next chunk.
      text = new TextDecoder('utf-8', { fatal: true }).decode(data, { stream: true });
    } catch {
      return message('files.contentNotUtf8', { ext });
    }
    const first = text.trimStart().charAt(0);
    if (ext !== 'json' || first === '') return undefined;
    const starts = size <= maxParsedJson ? jsonStart.test(first) : first === '{' || first === '[';
    return starts ? undefined : message('files.contentNotJson');
  }
  const { stream, readPast } = firstChunkStream(data);
  const problem = await checkBinaryContent(ext, stream);
  return whole || !readPast() ? problem : undefined;
}

/** The whole file in staging against its extension; undefined when it matches. */
export async function checkStagedContent(
  { ext, size }: { ext: string; size: number },
  staging: StagingRef,
  storage: Pick<Storage, 'readStaging'>,
): Promise<MessageRef | undefined> {
  const read = await storage.readStaging(staging, { start: 0, end: size - 1 });
  if (isTextExtension(ext)) return checkTextContent(ext, size, read);
  return checkBinaryContent(ext, read);
}

/**
 * A file whose content is not what its extension says: final (sending it again cannot change it),
 * so without the restart marker (issue 28).
 */
export function contentRefusal(problem: MessageRef, data: unknown = null): ApiError {
  return new ApiError(message('files.contentMismatch', { problem }), undefined, data);
}
