import { MalformedImage } from './errors';
import { rewriteExifPayload } from './tiff';

/** Chunks kept (EXIF rewritten): the image, its alpha, animation, and the ICC profile. */
const keptChunks = new Set(['VP8 ', 'VP8L', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);

const flagExif = 0x08;
const flagXmp = 0x04;

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return data.length % 2 === 1
    ? Buffer.concat([head, data, Buffer.alloc(1)])
    : Buffer.concat([head, data]);
}

/**
 * A WebP without its privacy metadata: the EXIF chunk rewritten to orientation and copyright (or
 * dropped), XMP and unknown chunks dropped, the VP8X flags and the RIFF size made to match. The
 * image chunks are copied byte for byte. A simple WebP (no VP8X) keeps no metadata chunk.
 */
export function stripWebp(data: Buffer): Buffer {
  if (
    data.length < 20 ||
    data.toString('latin1', 0, 4) !== 'RIFF' ||
    data.toString('latin1', 8, 12) !== 'WEBP'
  )
    throw new MalformedImage('the WebP RIFF header is missing');
  const riffEnd = 8 + data.readUInt32LE(4);
  if (riffEnd > data.length)
    throw new MalformedImage('the WebP is shorter than its RIFF header says');
  const chunks: Buffer[] = [];
  let vp8x: Buffer | undefined;
  let hasExif = false;
  let exifSeen = false;
  let sawImage = false;
  let at = 12;
  while (at + 8 <= riffEnd) {
    const fourcc = data.toString('latin1', at, at + 4);
    const size = data.readUInt32LE(at + 4);
    const end = at + 8 + size;
    if (end > riffEnd) throw new MalformedImage(`a WebP chunk at byte ${at} runs past the end`);
    const payload = data.subarray(at + 8, end);
    if (fourcc === 'VP8X') {
      if (at !== 12 || size < 10) throw new MalformedImage('the WebP VP8X chunk is malformed');
      vp8x = Buffer.from(payload);
      chunks.push(vp8x);
    } else if (fourcc === 'EXIF') {
      // Metadata chunks belong to the extended format (VP8X, always first): a simple WebP keeps none.
      const kept = exifSeen || !vp8x ? undefined : rewriteExifPayload(payload);
      exifSeen = true;
      if (kept) {
        hasExif = true;
        chunks.push(riffChunk('EXIF', kept));
      }
    } else if (keptChunks.has(fourcc)) {
      if (fourcc === 'VP8 ' || fourcc === 'VP8L' || fourcc === 'ANMF') sawImage = true;
      // A missing pad byte after an odd last chunk is added.
      const piece = data.subarray(at, Math.min(end + (size % 2), riffEnd));
      chunks.push(piece.length % 2 === 1 ? Buffer.concat([piece, Buffer.alloc(1)]) : piece);
    }
    at = end + (size % 2);
  }
  if (!sawImage) throw new MalformedImage('the WebP holds no image');
  if (vp8x) {
    const flags = vp8x[0] as number;
    vp8x[0] = (flags & ~(flagExif | flagXmp)) | (hasExif ? flagExif : 0);
  }
  const body = chunks.map((c) => (c === vp8x ? riffChunk('VP8X', c) : c));
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.write('WEBP', 8, 'latin1');
  head.writeUInt32LE(4 + body.reduce((sum, c) => sum + c.length, 0), 4);
  return Buffer.concat([head, ...body]);
}
