import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  copyright,
  heicWithMetadata,
  iccProfile,
  jpegWithMetadata,
  orientation,
  pngWithMetadata,
  readMetadata,
  secrets,
  webpWithMetadata,
} from './fixtures.testing';
import { MalformedImage, stripMetadata, stripsMetadata } from './index';

/** No secret string is left anywhere in the bytes (Latin-1 and UTF-16 alike are plain here). */
function expectNoSecrets(data: Buffer): void {
  const text = data.toString('latin1');
  for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
}

/** What an independent reader finds: location, device and dates gone; orientation, copyright and ICC kept. */
async function expectPrivate(data: Buffer, { icc = true } = {}): Promise<void> {
  const found = await readMetadata(data);
  expect(found.gps).toBeUndefined();
  expect(found.exif).toBeUndefined();
  expect(found.ifd1).toBeUndefined();
  expect(found.xmp).toBeUndefined();
  expect(found.iptc).toBeUndefined();
  const ifd0 = found.ifd0 as Record<string, unknown>;
  expect(Object.keys(ifd0).sort()).toEqual(['Copyright', 'Orientation']);
  expect(ifd0.Orientation).toBe(orientation);
  expect(ifd0.Copyright).toBe(copyright);
  if (icc) expect((found.icc as Record<string, unknown>).ProfileDescription).toBe('sP3C');
  expectNoSecrets(data);
}

async function expectRichBefore(data: Buffer): Promise<void> {
  const found = await readMetadata(data);
  expect(found.gps).toBeDefined();
  expect((found.ifd0 as Record<string, unknown>).Make).toBe(secrets.make);
  expect((found.exif as Record<string, unknown>).DateTimeOriginal).toBe(secrets.dateTime);
}

async function samePixels(a: Buffer, b: Buffer): Promise<void> {
  const [x, y] = await Promise.all([a, b].map((d) => sharp(d).raw().toBuffer()));
  expect(y?.equals(x as Buffer)).toBe(true);
}

/** JPEG marker segments before the first scan, and the bytes from the first SOS to EOI. */
function jpegParts(data: Buffer): { markers: string[]; scan: Buffer } {
  const markers: string[] = [];
  let at = 2;
  for (;;) {
    const marker = data[at + 1] as number;
    const length = data.readUInt16BE(at + 2);
    const id = data.toString('latin1', at + 4, at + 4 + 4);
    markers.push(`${marker.toString(16)}:${id}`);
    if (marker === 0xda)
      return {
        markers,
        scan: data.subarray(at, data.lastIndexOf('\xff\xd9', undefined, 'latin1') + 2),
      };
    at += 2 + length;
  }
}

function pngChunks(data: Buffer): { type: string; data: Buffer }[] {
  const chunks = [];
  let at = 8;
  while (at < data.length) {
    const length = data.readUInt32BE(at);
    chunks.push({
      type: data.toString('latin1', at + 4, at + 8),
      data: data.subarray(at + 8, at + 8 + length),
    });
    at += 12 + length;
  }
  return chunks;
}

function riffChunks(data: Buffer): { fourcc: string; data: Buffer }[] {
  const chunks = [];
  let at = 12;
  while (at < data.length) {
    const size = data.readUInt32LE(at + 4);
    chunks.push({
      fourcc: data.toString('latin1', at, at + 4),
      data: data.subarray(at + 8, at + 8 + size),
    });
    at += 8 + size + (size % 2);
  }
  return chunks;
}

describe('stripMetadata', () => {
  it('knows the image types it strips', () => {
    for (const ext of ['jpg', 'jpeg', 'png', 'webp', 'heic', 'heif', 'avif'])
      expect(stripsMetadata(ext)).toBe(true);
    for (const ext of ['gif', 'mp4', 'pdf', 'txt']) expect(stripsMetadata(ext)).toBe(false);
    const bytes = Buffer.from('GIF89a');
    expect(stripMetadata(bytes, 'gif')).toBe(bytes);
  });

  it('JPEG: drops GPS, device, dates, XMP, IPTC, comments and the trailer; keeps orientation, copyright, ICC and the scan bytes', async () => {
    const input = await jpegWithMetadata();
    await expectRichBefore(input);
    const output = stripMetadata(input, 'jpg');
    await expectPrivate(output);
    const before = jpegParts(input);
    const after = jpegParts(output);
    expect(after.scan.equals(before.scan)).toBe(true);
    // The new Exif and ICC (libvips writes no JFIF beside Exif), then tables and frame as they were.
    const app = (m: string) => m.startsWith('e') || m.startsWith('fe');
    expect(before.markers.filter(app)).toEqual([
      'fe:shot',
      'ed:Phot',
      'e1:Exif',
      'e1:http',
      'e2:ICC_',
    ]);
    expect(after.markers.filter(app)).toEqual(['e1:Exif', 'e2:ICC_']);
    expect(after.markers.filter((m) => !app(m))).toEqual(before.markers.filter((m) => !app(m)));
    expect(output.subarray(-2).toString('hex')).toBe('ffd9');
    await samePixels(input, output);
    // The same input always strips to the same bytes, and stripping twice changes nothing more.
    expect(stripMetadata(input, 'jpeg').equals(output)).toBe(true);
    expect(stripMetadata(output, 'jpg')).toBe(output);
  });

  it('JPEG: an Exif block with nothing worth keeping goes altogether', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    // A big-endian TIFF holding Make only.
    const tiff = Buffer.from(
      '4d4d002a00000008' + '0001' + '010f00020000000500' + '00001a' + '00000000',
      'hex',
    );
    const exif = Buffer.concat([
      Buffer.from('Exif\0\0', 'latin1'),
      tiff,
      Buffer.from('Acme\0', 'latin1'),
    ]);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, exif.length + 2]), exif]);
    const input = Buffer.concat([plain.subarray(0, 2), app1, plain.subarray(2)]);
    expect(((await readMetadata(input)).ifd0 as Record<string, unknown>).Make).toBe('Acme');
    const output = stripMetadata(input, 'jpg');
    expect(output.equals(plain)).toBe(true);
    await samePixels(input, output);
  });

  it('PNG: drops eXIf tags, tIME, text other than Copyright, XMP and private chunks; keeps iCCP and IDAT; CRCs right', async () => {
    const input = await pngWithMetadata();
    expect((await readMetadata(input)).gps).toBeDefined();
    const output = stripMetadata(input, 'png');
    await expectPrivate(output);
    const types = pngChunks(output).map((c) => c.type);
    expect(types).toEqual(['IHDR', 'tEXt', 'iCCP', 'eXIf', 'pHYs', 'IDAT', 'IEND']);
    const text = pngChunks(output).find((c) => c.type === 'tEXt');
    expect(text?.data.toString('latin1')).toBe(`Copyright\0${copyright}`);
    const idat = (d: Buffer) =>
      Buffer.concat(
        pngChunks(d)
          .filter((c) => c.type === 'IDAT')
          .map((c) => c.data),
      );
    expect(idat(output).equals(idat(input))).toBe(true);
    // libvips (libspng) checks every CRC while it decodes.
    await samePixels(input, output);
    expect(stripMetadata(output, 'png')).toBe(output);
  });

  it('WebP: rewrites EXIF, drops XMP, keeps ICCP and VP8; VP8X flags and RIFF size right', async () => {
    const input = await webpWithMetadata();
    expect(riffChunks(input).map((c) => c.fourcc)).toContain('XMP ');
    const output = stripMetadata(input, 'webp');
    // exifr reads no WebP: its EXIF chunk is TIFF, read as such.
    const exif = riffChunks(output).find((c) => c.fourcc === 'EXIF');
    expect(exif).toBeDefined();
    const payload = exif?.data ?? Buffer.alloc(0);
    const tiff = payload.toString('latin1', 0, 6) === 'Exif\0\0' ? payload.subarray(6) : payload;
    await expectPrivate(Buffer.from(tiff), { icc: false });
    expectNoSecrets(output);
    const chunks = riffChunks(output);
    expect(chunks.map((c) => c.fourcc)).toEqual(['VP8X', 'ICCP', 'VP8 ', 'EXIF']);
    const iccp = (d: Buffer) => riffChunks(d).find((c) => c.fourcc === 'ICCP')?.data;
    expect(iccp(output)?.equals(iccp(input) ?? Buffer.alloc(0))).toBe(true);
    const vp8 = (d: Buffer) => riffChunks(d).find((c) => c.fourcc === 'VP8 ')?.data;
    expect(vp8(output)?.equals(vp8(input) ?? Buffer.alloc(0))).toBe(true);
    expect(output.readUInt32LE(4)).toBe(output.length - 8);
    // ICC (0x20) and EXIF (0x08) set, XMP (0x04) cleared.
    expect((chunks[0]?.data[0] ?? 0) & 0x2c).toBe(0x28);
    const meta = await sharp(output).metadata();
    expect(meta.orientation).toBe(orientation);
    expect(meta.icc?.equals(await iccProfile())).toBe(true);
    expect(meta.xmp).toBeUndefined();
    await samePixels(input, output);
  });

  it('HEIC: blanks the Exif item in place (orientation, copyright kept) and the XMP item; nothing else moves', async () => {
    const fixture = await heicWithMetadata();
    const input = fixture.data;
    await expectRichBefore(input);
    const output = stripMetadata(input, 'heic');
    expect(output.length).toBe(input.length);
    await expectPrivate(output);
    // Only the bytes of the two metadata items changed.
    const [exifStart, exifEnd] = fixture.exif;
    const [, xmpEnd] = fixture.xmp;
    expect(output.subarray(0, exifStart).equals(input.subarray(0, exifStart))).toBe(true);
    expect(output.subarray(xmpEnd).equals(input.subarray(xmpEnd))).toBe(true);
    const [imageStart, imageEnd] = fixture.image;
    expect(output.subarray(imageStart, imageEnd).equals(input.subarray(imageStart, imageEnd))).toBe(
      true,
    );
    // The Exif item keeps its framing: offset 6, "Exif\0\0", then TIFF.
    expect(output.toString('latin1', exifStart + 4, exifStart + 10)).toBe('Exif\0\0');
    const xmp = output.toString('utf8', exifEnd, xmpEnd);
    expect(xmp.trimEnd()).toMatch(
      /^<\?xpacket begin=.*<x:xmpmeta xmlns:x="adobe:ns:meta\/"\/><\?xpacket end="w"\?>$/,
    );
    expect(stripMetadata(input, 'heif').equals(output)).toBe(true);
  });

  it('refuses images whose structure is broken, and never throws anything else', async () => {
    const jpeg = await jpegWithMetadata();
    const png = await pngWithMetadata();
    const webp = await webpWithMetadata();
    const heic = (await heicWithMetadata()).data;
    const broken: [string, Buffer][] = [
      ['jpg', Buffer.from('not a jpeg at all')],
      ['jpg', jpeg.subarray(0, 40)],
      ['png', png.subarray(0, 60)],
      ['png', Buffer.concat([png.subarray(0, 8), Buffer.from([0xff, 0xff, 0xff, 0xff])])],
      ['webp', webp.subarray(0, 30)],
      ['webp', Buffer.from('RIFF\x04\0\0\0WEBP', 'latin1')],
      ['heic', heic.subarray(0, 100)],
      ['heic', Buffer.from('\0\0\0\x10ftypheic\0\0\0\0', 'latin1')],
    ];
    for (const [ext, data] of broken) {
      expect(() => stripMetadata(data, ext), `${ext} ${data.length}`).toThrow(MalformedImage);
    }
    // Random damage anywhere: a MalformedImage or a result, never another error.
    for (const [ext, data] of [
      ['jpg', jpeg],
      ['png', png],
      ['webp', webp],
      ['heic', heic],
    ] as const) {
      for (let i = 0; i < 200; i += 1) {
        const damaged = Buffer.from(data);
        const at = (i * 7919) % damaged.length;
        damaged[at] = (damaged[at] ?? 0) ^ (1 + (i % 255));
        try {
          stripMetadata(damaged.subarray(0, damaged.length - (i % 13)), ext);
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedImage);
        }
      }
    }
  });

  it('leaves a simple image without metadata as it is', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect(stripMetadata(png, 'png')).toBe(png);
    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    expect(stripMetadata(webp, 'webp')).toBe(webp);
  });
});
