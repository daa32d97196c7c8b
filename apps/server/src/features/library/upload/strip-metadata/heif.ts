import { MalformedImage } from './errors';
import { blankTiffInPlace } from './tiff';

/** A box: its type, where its payload starts and where it ends. */
interface Box {
  type: string;
  start: number;
  end: number;
}

function boxes(data: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    let start = at + 8;
    if (size === 1) {
      if (at + 16 > to) throw new MalformedImage(`an ISOBMFF box at byte ${at} is cut short`);
      size = Number(data.readBigUInt64BE(at + 8));
      start += 8;
    } else if (size === 0) {
      size = to - at;
    }
    const end = at + size;
    if (size < start - at || end > to)
      throw new MalformedImage(
        `the ${JSON.stringify(type)} box at byte ${at} runs past its parent`,
      );
    found.push({ type, start, end });
    at = end;
  }
  return found;
}

/** Reads big-endian fields within one box, refusing to read past it. */
class Reader {
  constructor(
    private readonly data: Buffer,
    public at: number,
    private readonly end: number,
  ) {}

  private need(n: number): number {
    if (this.at + n > this.end) throw new MalformedImage('an ISOBMFF box is cut short');
    const at = this.at;
    this.at += n;
    return at;
  }

  uint(bytes: number): number {
    if (bytes === 0) return 0;
    const at = this.need(bytes);
    if (bytes === 8) return Number(this.data.readBigUInt64BE(at));
    return this.data.readUIntBE(at, bytes);
  }

  fourcc(): string {
    const at = this.need(4);
    return this.data.toString('latin1', at, at + 4);
  }

  /** A NUL-terminated UTF-8 string (the box's end also ends it). */
  string(): string {
    let stop = this.data.indexOf(0, this.at);
    if (stop < 0 || stop >= this.end) stop = this.end;
    const text = this.data.toString('utf8', this.at, stop);
    this.at = Math.min(stop + 1, this.end);
    return text;
  }

  get left(): number {
    return this.end - this.at;
  }
}

/** A metadata item: Exif, or XMP (a `mime` item of type application/rdf+xml). */
interface Item {
  id: number;
  kind: 'exif' | 'xmp';
  /** XMP stored compressed (content_encoding): blanked with zeros instead of a packet. */
  encoded: boolean;
}

function metadataItems(data: Buffer, iinf: Box): Item[] {
  const r = new Reader(data, iinf.start, iinf.end);
  const version = r.uint(1);
  r.uint(3);
  r.uint(version === 0 ? 2 : 4);
  const items: Item[] = [];
  for (const infe of boxes(data, r.at, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const e = new Reader(data, infe.start, infe.end);
    const v = e.uint(1);
    e.uint(3);
    // Versions 0 and 1 (no item type) are from before HEIF and name no metadata items.
    if (v < 2) continue;
    const id = e.uint(v === 2 ? 2 : 4);
    e.uint(2);
    const type = e.fourcc();
    e.string();
    if (type === 'Exif') items.push({ id, kind: 'exif', encoded: false });
    if (type === 'mime') {
      const contentType = e.string().toLowerCase();
      const encoding = e.left > 0 ? e.string() : '';
      if (contentType.includes('rdf+xml') || contentType.includes('xmp'))
        items.push({ id, kind: 'xmp', encoded: encoding !== '' });
    }
  }
  return items;
}

/** Byte ranges of the file holding each item listed in iloc (its extents in order). */
function itemExtents(
  data: Buffer,
  iloc: Box,
  idat: Box | undefined,
  wanted: ReadonlySet<number>,
): Map<number, [number, number][]> {
  const r = new Reader(data, iloc.start, iloc.end);
  const version = r.uint(1);
  r.uint(3);
  const sizes = r.uint(1);
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 0x0f;
  const more = r.uint(1);
  const baseOffsetSize = more >> 4;
  const indexSize = version === 1 || version === 2 ? more & 0x0f : 0;
  const count = r.uint(version < 2 ? 2 : 4);
  const found = new Map<number, [number, number][]>();
  for (let i = 0; i < count; i += 1) {
    const id = r.uint(version < 2 ? 2 : 4);
    const method = version === 1 || version === 2 ? r.uint(2) & 0x0f : 0;
    const reference = r.uint(2);
    const base = r.uint(baseOffsetSize);
    const extents = r.uint(2);
    const ranges: [number, number][] = [];
    for (let k = 0; k < extents; k += 1) {
      r.uint(indexSize);
      const offset = r.uint(offsetSize);
      const length = r.uint(lengthSize);
      ranges.push([base + offset, length]);
    }
    if (!wanted.has(id)) continue;
    if (reference !== 0 || method === 2)
      throw new MalformedImage(
        'its metadata is stored where it cannot be removed (another file or another item)',
      );
    let from = 0;
    let to = data.length;
    if (method === 1) {
      if (!idat) throw new MalformedImage('an item refers to an idat box that is missing');
      from = idat.start;
      to = idat.end;
    }
    found.set(
      id,
      ranges.map(([offset, length]) => {
        const start = from + offset;
        const end = length === 0 ? to : start + length;
        if (start > to || end > to) throw new MalformedImage('an item runs past the end');
        return [start, end];
      }),
    );
  }
  return found;
}

const emptyXmp = Buffer.from(
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/><?xpacket end="w"?>',
  'utf8',
);

/** Rewrites an item's bytes, gathered from its extents, and puts them back in the same places. */
function rewriteItem(out: Buffer, ranges: [number, number][], rewrite: (item: Buffer) => void) {
  const item = Buffer.concat(ranges.map(([start, end]) => out.subarray(start, end)));
  rewrite(item);
  let at = 0;
  for (const [start, end] of ranges) {
    item.copy(out, start, at, at + (end - start));
    at += end - start;
  }
}

/**
 * A HEIC/HEIF without its privacy metadata, every byte in place (no offset moves): the Exif
 * item's TIFF data rewritten to orientation and copyright and zeros after it, XMP items replaced
 * by an empty packet padded with spaces. Image items, properties (the ICC profile in `colr`) and
 * everything else are untouched.
 */
export function stripHeif(data: Buffer): Buffer {
  const top = boxes(data, 0, data.length);
  if (top[0]?.type !== 'ftyp') throw new MalformedImage('the HEIF file does not start with ftyp');
  const meta = top.find((b) => b.type === 'meta');
  if (!meta) throw new MalformedImage('the HEIF file has no meta box');
  // meta is a full box: version and flags first.
  const children = boxes(data, meta.start + 4, meta.end);
  const iinf = children.find((b) => b.type === 'iinf');
  const iloc = children.find((b) => b.type === 'iloc');
  if (!iinf || !iloc) return data;
  const items = metadataItems(data, iinf);
  if (items.length === 0) return data;
  const extents = itemExtents(
    data,
    iloc,
    children.find((b) => b.type === 'idat'),
    new Set(items.map((i) => i.id)),
  );
  const out = Buffer.from(data);
  for (const item of items) {
    const ranges = extents.get(item.id);
    if (!ranges) continue;
    rewriteItem(out, ranges, (bytes) => {
      if (item.kind === 'xmp') {
        if (item.encoded || bytes.length < emptyXmp.length) bytes.fill(0);
        else bytes.fill(0x20).set(emptyXmp);
        return;
      }
      // Exif item: a 4-byte offset to the TIFF header (past an "Exif\0\0" prefix), then TIFF.
      const tiffAt = bytes.length >= 4 ? 4 + bytes.readUInt32BE(0) : bytes.length;
      if (tiffAt >= bytes.length) {
        bytes.fill(0, Math.min(4, bytes.length));
        return;
      }
      blankTiffInPlace(bytes.subarray(tiffAt));
    });
  }
  return out;
}
