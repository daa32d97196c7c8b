// @ts-check
// Inflating what a document compresses, under a cap, before any parser sees it (issue 26,
// point 7). The parsers (mammoth's JSZip, pdf.js) inflate without a bound of their own: a 500 KB
// file of repeated text inflates to hundreds of megabytes inside them. Here every inflation
// stops at the bytes left under MAX_UNPACKED_BYTES, whatever sizes the file declares.
import { constants, crc32, inflateRawSync, inflateSync } from 'node:zlib';
import { MAX_UNPACKED_BYTES, tooLargeUnpacked } from './reading-limits.mjs';

/**
 * A document past a bound, or not what it claims to be. `reason` is the catalogue message the
 * member reads ({key, params}); the error's own message is the detail for the log.
 */
export class Unreadable extends Error {
  /**
   * @param {{ key: string, params?: Record<string, string | number> }} reason
   * @param {string} [detail]
   */
  constructor(reason, detail) {
    super(detail ? `${reason.key}: ${detail}` : reason.key);
    this.reason = reason;
    this.detail = detail;
  }
}

/**
 * Inflates `data` (zlib or raw deflate) to at most `room` bytes; past it the document is too
 * large when unpacked.
 * @param {Uint8Array} data
 * @param {number} room
 * @param {boolean} raw
 * @returns {Buffer}
 */
function inflateAtMost(data, room, raw) {
  const options = { maxOutputLength: Math.max(room, 1), finishFlush: constants.Z_SYNC_FLUSH };
  try {
    return raw ? inflateRawSync(data, options) : inflateSync(data, options);
  } catch (error) {
    if (error instanceof RangeError) throw new Unreadable(tooLargeUnpacked);
    throw error;
  }
}

/** A part of a DOCX that holds text or says where it is: what mammoth reads. */
const xmlPart = /\.(xml|rels)$/i;

/**
 * The XML parts of a DOCX (a zip), inflated here under the cap and zipped again uncompressed,
 * so mammoth inflates nothing. The other parts (images, fonts) are left out: reading the text
 * never needs them, and a part that is not measured never reaches the parser.
 * @param {Uint8Array} bytes
 * @returns {Buffer}
 */
export function boundedDocx(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const invalid = (/** @type {string} */ why) => new Unreadable({ key: 'docs.invalidWord' }, why);
  // The end record sits in the last 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw invalid('no zip directory');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  /** @type {{ name: string; data: Buffer }[]} */
  const parts = [];
  let unpacked = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw invalid('bad directory');
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const skip = nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + skip;
    if (!xmlPart.test(name)) continue;
    if (size === 0xffffffff || local === 0xffffffff) throw invalid('ZIP64 parts');
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50)
      throw invalid('bad part');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const stored = buf.subarray(start, start + size);
    const room = MAX_UNPACKED_BYTES - unpacked;
    let data;
    if (method === 0) {
      if (stored.length > room) throw new Unreadable(tooLargeUnpacked);
      data = stored;
    } else if (method === 8) {
      try {
        data = inflateAtMost(stored, room, true);
      } catch (error) {
        if (error instanceof Unreadable) throw error;
        throw invalid(`${name} is damaged`);
      }
    } else {
      throw invalid(`${name} is compressed in an unknown way`);
    }
    unpacked += data.length;
    parts.push({ name, data });
  }
  return storedZip(parts);
}

/**
 * A zip of these parts, uncompressed (what a DOCX may be; the test fixtures write theirs with it).
 * @param {{ name: string; data: Buffer }[]} parts
 * @returns {Buffer}
 */
export function storedZip(parts) {
  /** @type {Buffer[]} */
  const out = [];
  /** @type {Buffer[]} */
  const directory = [];
  let offset = 0;
  for (const { name, data } of parts) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    out.push(local, nameBytes, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    directory.push(entry, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const central = Buffer.concat(directory);
  const tail = Buffer.alloc(22);
  tail.writeUInt32LE(0x06054b50, 0);
  tail.writeUInt16LE(parts.length, 8);
  tail.writeUInt16LE(parts.length, 10);
  tail.writeUInt32LE(central.length, 12);
  tail.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, central, tail]);
}

/**
 * Checks what a PDF's Flate streams inflate to, images aside (reading text never decodes them),
 * against the cap: pdf.js would inflate each in full, in memory, as it reads the page. Streams
 * that do not inflate here (encrypted, damaged) are left to pdf.js, under the page, text and
 * memory bounds of the reader.
 * @param {Uint8Array} bytes
 */
export function checkPdfStreams(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let unpacked = 0;
  let at = 0;
  for (;;) {
    const keyword = buf.indexOf('stream', at, 'latin1');
    if (keyword < 0) return;
    at = keyword + 6;
    const eol = buf[at];
    if (eol !== 0x0a && eol !== 0x0d) continue;
    if (keyword >= 3 && buf.toString('latin1', keyword - 3, keyword) === 'end') continue;
    const dataStart = eol === 0x0d && buf[at + 1] === 0x0a ? at + 2 : at + 1;
    const close = buf.indexOf('endstream', dataStart, 'latin1');
    const dataEnd = close < 0 ? buf.length : close;
    const dict = buf.toString('latin1', Math.max(0, keyword - 2048), keyword);
    const opened = dict.lastIndexOf('obj');
    const own = opened < 0 ? dict : dict.slice(opened);
    at = dataEnd;
    if (/\/Subtype\s*\/Image\b/.test(own)) continue;
    const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(own)?.[1] ?? '';
    const flates = filter.match(/\/(FlateDecode|Fl)\b/g)?.length ?? 0;
    if (flates === 0) continue;
    /** @type {Uint8Array} */
    let data = buf.subarray(dataStart, dataEnd);
    try {
      for (let i = 0; i < flates; i++)
        data = inflateAtMost(data, MAX_UNPACKED_BYTES - unpacked, false);
    } catch (error) {
      if (error instanceof Unreadable) throw error;
      continue;
    }
    unpacked += data.length;
  }
}
