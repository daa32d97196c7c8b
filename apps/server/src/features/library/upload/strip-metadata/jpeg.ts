import { MalformedImage } from './errors';
import { rewriteExifPayload } from './tiff';

const exifId = Buffer.from('Exif\0\0', 'latin1');
const iccId = Buffer.from('ICC_PROFILE\0', 'latin1');
const jfifId = Buffer.from('JFIF\0', 'latin1');
const adobeId = Buffer.from('Adobe', 'latin1');

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;
const COM = 0xfe;

function startsWith(data: Buffer, id: Buffer): boolean {
  return data.length >= id.length && data.subarray(0, id.length).equals(id);
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/**
 * A marker segment's fate: kept as it is, replaced, or dropped. Kept: JFIF APP0 (without a
 * thumbnail), the Exif APP1 rewritten to orientation and copyright (the first one only), ICC APP2
 * and Adobe APP14 (colour); every marker that is not APPn or COM (tables, frame, scan). Dropped:
 * XMP and other APP1, MPF and FlashPix APP2, IPTC/Photoshop APP13, JFXX thumbnails, C2PA/JUMBF
 * APP11, vendor APPn, comments.
 */
function keep(marker: number, payload: Buffer, state: { exifSeen: boolean }): Buffer | undefined {
  if (marker < APP0 || (marker > 0xef && marker !== COM)) return segment(marker, payload);
  if (marker === APP0 && startsWith(payload, jfifId) && payload.length >= 14) {
    // Version, units, densities; thumbnail dimensions set to 0 and its pixels dropped.
    const jfif = Buffer.from(payload.subarray(0, 14));
    jfif[12] = 0;
    jfif[13] = 0;
    return segment(marker, jfif);
  }
  if (marker === APP1 && startsWith(payload, exifId)) {
    if (state.exifSeen) return undefined;
    state.exifSeen = true;
    const kept = rewriteExifPayload(payload);
    return kept ? segment(marker, kept) : undefined;
  }
  if (marker === APP2 && startsWith(payload, iccId)) return segment(marker, payload);
  if (marker === APP14 && startsWith(payload, adobeId)) return segment(marker, payload);
  return undefined;
}

/**
 * A JPEG without its privacy metadata (see `keep`), the entropy-coded data copied byte for byte.
 * Bytes after EOI (MPF secondary images, vendor trailers) are dropped with the MPF segment that
 * points at them.
 */
export function stripJpeg(data: Buffer): Buffer {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== SOI)
    throw new MalformedImage('the JPEG does not start with its SOI marker');
  const out: Buffer[] = [data.subarray(0, 2)];
  const state = { exifSeen: false };
  let at = 2;
  while (at < data.length) {
    // Stray bytes between segments are skipped, as decoders do.
    if (data[at] !== 0xff) {
      at += 1;
      continue;
    }
    // Fill bytes before a marker.
    while (at + 1 < data.length && data[at + 1] === 0xff) at += 1;
    if (at + 1 >= data.length) throw new MalformedImage('the JPEG ends inside a marker');
    const marker = data[at + 1] as number;
    if (marker === EOI) {
      out.push(data.subarray(at, at + 2));
      return Buffer.concat(out);
    }
    // Markers without a length (TEM, RSTn outside a scan): copied.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      out.push(data.subarray(at, at + 2));
      at += 2;
      continue;
    }
    if (at + 4 > data.length) throw new MalformedImage('the JPEG ends inside a marker segment');
    const length = data.readUInt16BE(at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > data.length)
      throw new MalformedImage(`a JPEG marker segment at byte ${at} runs past the end`);
    const kept = keep(marker, data.subarray(at + 4, end), state);
    if (kept) out.push(kept);
    at = end;
    if (marker === SOS) {
      // Entropy-coded data up to the next marker that is not a stuffed 0xFF00, a restart marker
      // or a fill byte.
      let scan = at;
      while (scan < data.length) {
        if (data[scan] === 0xff && scan + 1 < data.length) {
          const next = data[scan + 1] as number;
          if (next !== 0 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) break;
        }
        scan += 1;
      }
      out.push(data.subarray(at, scan));
      at = scan;
      // A truncated scan (no EOI) is left as it came: decoders show what there is.
    }
  }
  return Buffer.concat(out);
}
