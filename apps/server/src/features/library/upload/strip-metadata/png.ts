import { crc32 } from 'node:zlib';
import { MalformedImage } from './errors';
import { rewriteExifPayload } from './tiff';

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Ancillary chunks kept as they are: colour (iCCP, sRGB, gAMA, cHRM, cICP, mDCV, cLLI), what the
 * pixels need to be shown right (tRNS, sBIT, bKGD, hIST, sPLT, pHYs, oFFs, sCAL) and APNG
 * animation. Critical chunks (IHDR, PLTE, IDAT, IEND, any other upper-case one) are always kept.
 * Dropped: eXIf unless rewritten, tIME, tEXt/zTXt/iTXt other than Copyright, and every other
 * ancillary chunk (vendor, C2PA, "Raw profile" Exif in text).
 */
const keptAncillary = new Set([
  'iCCP',
  'sRGB',
  'gAMA',
  'cHRM',
  'cICP',
  'mDCV',
  'cLLI',
  'tRNS',
  'sBIT',
  'bKGD',
  'hIST',
  'sPLT',
  'pHYs',
  'oFFs',
  'sCAL',
  'acTL',
  'fcTL',
  'fdAT',
]);

const textChunks = new Set(['tEXt', 'zTXt', 'iTXt']);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A text chunk whose keyword (Latin-1, before the first NUL) is "Copyright". */
function isCopyright(data: Buffer): boolean {
  const nul = data.indexOf(0);
  return nul > 0 && data.toString('latin1', 0, nul) === 'Copyright';
}

/** A PNG without its privacy metadata; IDAT and the other kept chunks copied byte for byte. */
export function stripPng(data: Buffer): Buffer {
  if (data.length < 8 || !data.subarray(0, 8).equals(signature))
    throw new MalformedImage('the PNG signature is missing');
  const out: Buffer[] = [signature];
  let exifSeen = false;
  let at = 8;
  for (;;) {
    if (at + 12 > data.length) throw new MalformedImage('the PNG ends before its IEND chunk');
    const length = data.readUInt32BE(at);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > data.length)
      throw new MalformedImage(`a PNG chunk at byte ${at} runs past the end`);
    const type = data.toString('latin1', at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new MalformedImage(`not a PNG chunk at byte ${at}`);
    const payload = data.subarray(at + 8, at + 8 + length);
    const critical = (type.charCodeAt(0) & 0x20) === 0;
    if (type === 'eXIf') {
      const kept = exifSeen ? undefined : rewriteExifPayload(payload);
      exifSeen = true;
      if (kept) out.push(chunk('eXIf', kept));
    } else if (textChunks.has(type)) {
      if (isCopyright(payload)) out.push(data.subarray(at, end));
    } else if (critical || keptAncillary.has(type)) {
      out.push(data.subarray(at, end));
    }
    at = end;
    // Whatever follows IEND is not part of the image.
    if (type === 'IEND') return Buffer.concat(out);
  }
}
