/**
 * The Exif (TIFF) data kept by `stripMetadata`: the orientation and the copyright of IFD0, read
 * from the original and written as a minimal TIFF of its own. Everything else an Exif block holds
 * (GPS IFD, Make, Model, serial numbers, lens, software, every DateTime* tag, maker notes, the
 * IFD1 thumbnail) is left behind.
 */

const tagOrientation = 0x0112;
const tagCopyright = 0x8298;
const typeAscii = 2;
const typeShort = 3;

/** Longest copyright kept, in bytes (an APP1 segment holds at most 65533). */
const maxCopyrightBytes = 4096;

/** What is kept of an Exif block. */
export interface KeptExif {
  /** 1 to 8 (TIFF/EP). */
  orientation?: number;
  /** The raw ASCII value, NUL-terminated (it may hold two strings: photographer and editor). */
  copyright?: Buffer;
}

/** Where TIFF data starts in an Exif payload: after an "Exif\0\0" prefix, if there is one. */
export function tiffStart(data: Buffer): number | undefined {
  if (isTiffHeader(data, 0)) return 0;
  if (data.length >= 6 && data.toString('latin1', 0, 6) === 'Exif\0\0' && isTiffHeader(data, 6))
    return 6;
  return undefined;
}

function isTiffHeader(data: Buffer, at: number): boolean {
  if (data.length < at + 8) return false;
  const order = data.toString('latin1', at, at + 2);
  if (order === 'II') return data.readUInt16LE(at + 2) === 42;
  if (order === 'MM') return data.readUInt16BE(at + 2) === 42;
  return false;
}

/**
 * The orientation and copyright of a TIFF's IFD0; undefined when the data is not a TIFF that can be
 * read (its metadata is then dropped as a whole).
 */
export function readKeptExif(tiff: Buffer): KeptExif | undefined {
  if (!isTiffHeader(tiff, 0)) return undefined;
  const little = tiff[0] === 0x49;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  if (ifd + 2 + count * 12 > tiff.length) return undefined;
  const kept: KeptExif = {};
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * 12;
    const tag = u16(entry);
    const type = u16(entry + 2);
    const n = u32(entry + 4);
    if (tag === tagOrientation && type === typeShort && n >= 1) {
      const value = u16(entry + 8);
      if (value >= 1 && value <= 8) kept.orientation = value;
    } else if (tag === tagCopyright && type === typeAscii && n >= 1 && n <= maxCopyrightBytes) {
      const at = n <= 4 ? entry + 8 : u32(entry + 8);
      if (at + n > tiff.length) continue;
      const raw = Buffer.from(tiff.subarray(at, at + n));
      // Nothing but NULs and spaces is no copyright.
      if (raw.some((b) => b !== 0 && b !== 0x20)) {
        kept.copyright = raw[raw.length - 1] === 0 ? raw : Buffer.concat([raw, Buffer.from([0])]);
      }
    }
  }
  return kept;
}

export function hasKept(kept: KeptExif | undefined): kept is KeptExif {
  return kept?.orientation !== undefined || kept?.copyright !== undefined;
}

/**
 * A minimal little-endian TIFF with IFD0 holding only the kept tags (ascending, as TIFF wants) and
 * no next IFD.
 */
export function minimalTiff(kept: KeptExif): Buffer {
  const entries: { tag: number; type: number; count: number; inline?: number; data?: Buffer }[] =
    [];
  if (kept.orientation !== undefined)
    entries.push({ tag: tagOrientation, type: typeShort, count: 1, inline: kept.orientation });
  if (kept.copyright !== undefined)
    entries.push({
      tag: tagCopyright,
      type: typeAscii,
      count: kept.copyright.length,
      data: kept.copyright,
    });
  const ifdEnd = 8 + 2 + entries.length * 12 + 4;
  const extra = entries.reduce(
    (sum, e) => sum + (e.data && e.data.length > 4 ? e.data.length + (e.data.length % 2) : 0),
    0,
  );
  const out = Buffer.alloc(ifdEnd + extra);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(entries.length, 8);
  let dataAt = ifdEnd;
  entries.forEach((e, i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(e.tag, at);
    out.writeUInt16LE(e.type, at + 2);
    out.writeUInt32LE(e.count, at + 4);
    if (e.data && e.data.length > 4) {
      out.writeUInt32LE(dataAt, at + 8);
      e.data.copy(out, dataAt);
      dataAt += e.data.length + (e.data.length % 2);
    } else if (e.data) {
      e.data.copy(out, at + 8);
    } else {
      out.writeUInt16LE(e.inline ?? 0, at + 8);
    }
  });
  out.writeUInt32LE(0, ifdEnd - 4);
  return out;
}

/**
 * The Exif payload `data` (TIFF, optionally after "Exif\0\0") with only what is kept, in the same
 * framing; undefined when nothing is kept (or it cannot be read), so the block goes.
 */
export function rewriteExifPayload(data: Buffer): Buffer | undefined {
  const start = tiffStart(data);
  if (start === undefined) return undefined;
  const kept = readKeptExif(data.subarray(start));
  if (!hasKept(kept)) return undefined;
  return Buffer.concat([data.subarray(0, start), minimalTiff(kept)]);
}

/**
 * Rewrites the TIFF data in `area` in place, keeping its length (HEIF, whose item offsets must not
 * move): the minimal TIFF at its start (an empty IFD0 when nothing is kept), zeros after it. An
 * area it cannot read as TIFF is zeroed whole.
 */
export function blankTiffInPlace(area: Buffer): void {
  const kept = readKeptExif(area);
  let replacement = kept ? minimalTiff(kept) : undefined;
  if (replacement && replacement.length > area.length && kept?.orientation !== undefined) {
    replacement = minimalTiff({ orientation: kept.orientation });
  }
  area.fill(0);
  if (replacement && replacement.length <= area.length) replacement.copy(area);
}
