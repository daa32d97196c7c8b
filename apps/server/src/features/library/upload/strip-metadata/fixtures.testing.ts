import { crc32 } from 'node:zlib';
import exifr from 'exifr';
import sharp from 'sharp';

/**
 * Images carrying every kind of metadata `stripMetadata` deals with (GPS, make, model, serial,
 * software, dates, orientation, copyright, an ICC profile, XMP, comments), for its tests and the
 * upload tests. JPEG, PNG and WebP are written by libvips (sharp) and given more by hand; HEIC is
 * assembled box by box (no HEVC encoder here): its "pixels" are opaque bytes, as the stripper
 * treats them.
 */

/** Strings that must not survive stripping. */
export const secrets = {
  make: 'AcmeCam',
  model: 'Xr-1000',
  software: 'PhotoTool 7',
  dateTime: '2021:07:14 10:20:30',
  xmp: 'SecretXmpLocation',
  comment: 'shot in the back garden',
} as const;
export const copyright = '(c) Ann Example';
export const orientation = 6;

const xmpPacket = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" exif:GPSLatitude="48,51.5N" exif:GPSLongitude="2,17.2E" photoshop:City="${secrets.xmp}" photoshop:DateCreated="2021-07-14T10:20:30"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

function base() {
  return sharp({
    create: { width: 24, height: 16, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .withExif({
      IFD0: {
        Make: secrets.make,
        Model: secrets.model,
        Software: secrets.software,
        DateTime: secrets.dateTime,
        Copyright: copyright,
      },
      IFD2: {
        DateTimeOriginal: secrets.dateTime,
        DateTimeDigitized: secrets.dateTime,
        BodySerialNumber: 'SN12345',
        LensModel: 'Acme 35mm',
      },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 30/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 12/1',
        GPSDateStamp: '2021:07:14',
      },
    })
    .withMetadata({ orientation })
    .withIccProfile('p3')
    .withXmp(xmpPacket);
}

function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** A JPEG with Exif (GPS, device, dates, orientation, copyright), XMP, ICC, IPTC, a comment. */
export async function jpegWithMetadata(): Promise<Buffer> {
  const written = await base().jpeg({ quality: 90 }).toBuffer();
  const iptc = Buffer.concat([
    Buffer.from('Photoshop 3.0\0', 'latin1'),
    Buffer.from(`8BIM\x04\x04\0\0\0\0\0\x20\x1c\x02\x5a\0\x10${secrets.xmp}Cty!`, 'latin1'),
  ]);
  return Buffer.concat([
    written.subarray(0, 2),
    jpegSegment(0xfe, Buffer.from(secrets.comment, 'latin1')),
    jpegSegment(0xed, iptc),
    written.subarray(2),
    // A trailer after EOI, as some phones append.
    Buffer.from(`TRAILER ${secrets.make}`, 'latin1'),
  ]);
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG with eXIf, iCCP, XMP in iTXt, tIME and text chunks (one of them the copyright). */
export async function pngWithMetadata(): Promise<Buffer> {
  const written = await base().png().toBuffer();
  // After IHDR (8 + 25 bytes): the chunks a camera app or an editor adds.
  const extra = Buffer.concat([
    pngChunk('tIME', Buffer.from([0x07, 0xe5, 7, 14, 10, 20, 30])),
    pngChunk('tEXt', Buffer.from(`Copyright\0${copyright}`, 'latin1')),
    pngChunk('tEXt', Buffer.from(`Creation Time\0${secrets.dateTime}`, 'latin1')),
    pngChunk('tEXt', Buffer.from(`Comment\0${secrets.comment}`, 'latin1')),
    pngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${xmpPacket}`, 'utf8')),
    pngChunk('prVt', Buffer.from(`${secrets.make} private`, 'latin1')),
  ]);
  return Buffer.concat([written.subarray(0, 33), extra, written.subarray(33)]);
}

/** A WebP (VP8X) with EXIF, XMP and ICCP chunks. */
export function webpWithMetadata(): Promise<Buffer> {
  return base().webp({ quality: 90 }).toBuffer();
}

/** The Exif TIFF block libvips wrote into a JPEG (for the HEIC fixture). */
async function exifTiff(): Promise<Buffer> {
  const meta = await base()
    .jpeg()
    .toBuffer()
    .then((b) => sharp(b).metadata());
  if (!meta.exif) throw new Error('sharp wrote no Exif');
  // sharp answers the APP1 payload: "Exif\0\0" then TIFF.
  return meta.exif.subarray(6);
}

export async function iccProfile(): Promise<Buffer> {
  const meta = await base()
    .jpeg()
    .toBuffer()
    .then((b) => sharp(b).metadata());
  if (!meta.icc) throw new Error('sharp wrote no ICC profile');
  return meta.icc;
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

function fullBox(type: string, version: number, ...parts: Buffer[]): Buffer {
  return box(type, Buffer.from([version, 0, 0, 0]), ...parts);
}

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
};
const text = (s: string) => Buffer.from(`${s}\0`, 'utf8');

/** The parts of the HEIC fixture, to check what changed. */
export interface HeicFixture {
  data: Buffer;
  /** Where the (opaque) coded image is. */
  image: [number, number];
  exif: [number, number];
  xmp: [number, number];
}

/**
 * A HEIC still: ftyp, meta (hdlr, pitm, iinf with an hvc1 item, an Exif item and an XMP item,
 * iref, iprp with the ICC profile in colr, iloc) and mdat holding the three items.
 */
export async function heicWithMetadata(): Promise<HeicFixture> {
  const image = Buffer.alloc(600);
  for (let i = 0; i < image.length; i += 1) image[i] = (i * 37 + 11) & 0xff;
  const exif = Buffer.concat([u32(6), Buffer.from('Exif\0\0', 'latin1'), await exifTiff()]);
  const xmp = Buffer.from(xmpPacket, 'utf8');
  const icc = await iccProfile();
  const ftyp = box(
    'ftyp',
    Buffer.from('heic', 'latin1'),
    u32(0),
    Buffer.from('mif1heic', 'latin1'),
  );
  const meta = (mdatData: number) => {
    const at = [mdatData, mdatData + image.length, mdatData + image.length + exif.length];
    return fullBox(
      'meta',
      0,
      fullBox('hdlr', 0, u32(0), Buffer.from('pict', 'latin1'), Buffer.alloc(12), text('')),
      fullBox('pitm', 0, u16(1)),
      fullBox(
        'iinf',
        0,
        u16(3),
        fullBox('infe', 2, u16(1), u16(0), Buffer.from('hvc1', 'latin1'), text('')),
        fullBox('infe', 2, u16(2), u16(0), Buffer.from('Exif', 'latin1'), text('')),
        fullBox(
          'infe',
          2,
          u16(3),
          u16(0),
          Buffer.from('mime', 'latin1'),
          text(''),
          text('application/rdf+xml'),
        ),
      ),
      fullBox('iref', 0, box('cdsc', u16(2), u16(1), u16(1)), box('cdsc', u16(3), u16(1), u16(1))),
      box(
        'iprp',
        box(
          'ipco',
          box('colr', Buffer.from('prof', 'latin1'), icc),
          fullBox('ispe', 0, u32(24), u32(16)),
        ),
        fullBox('ipma', 0, u32(1), u16(1), Buffer.from([2, 0x81, 0x02])),
      ),
      fullBox(
        'iloc',
        0,
        Buffer.from([0x44, 0x00]),
        u16(3),
        ...[image, exif, xmp].flatMap((item, i) => [
          u16(i + 1),
          u16(0),
          u16(1),
          u32(at[i] ?? 0),
          u32(item.length),
        ]),
      ),
    );
  };
  const mdatData = ftyp.length + meta(0).length + 8;
  const data = Buffer.concat([ftyp, meta(mdatData), box('mdat', image, exif, xmp)]);
  const exifAt = mdatData + image.length;
  return {
    data,
    image: [mdatData, exifAt],
    exif: [exifAt, exifAt + exif.length],
    xmp: [exifAt + exif.length, exifAt + exif.length + xmp.length],
  };
}

/** What an independent reader (exifr) finds in an image. */
export async function readMetadata(data: Buffer): Promise<Record<string, unknown>> {
  const found = (await exifr.parse(data, {
    tiff: true,
    ifd0: {},
    exif: true,
    gps: true,
    interop: true,
    ifd1: true,
    xmp: true,
    icc: true,
    iptc: true,
    jfif: true,
    ihdr: true,
    makerNote: true,
    userComment: true,
    translateValues: false,
    reviveValues: false,
    mergeOutput: false,
  } as never)) as Record<string, unknown> | undefined;
  return found ?? {};
}
