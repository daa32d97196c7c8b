import type { Readable } from 'node:stream';
import { fileTypeFromStream } from 'file-type/node';
import { message, type MessageRef } from '@atrium/shared/messages/catalogue';
import { outageOf } from '../../http/unavailable';

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
