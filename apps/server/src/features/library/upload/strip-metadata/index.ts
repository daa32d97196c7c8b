import { MalformedImage } from './errors';
import { stripHeif } from './heif';
import { stripJpeg } from './jpeg';
import { stripPng } from './png';
import { stripWebp } from './webp';

export { MalformedImage } from './errors';

const strippers: Record<string, (data: Buffer) => Buffer> = {
  jpg: stripJpeg,
  jpeg: stripJpeg,
  png: stripPng,
  webp: stripWebp,
  heic: stripHeif,
  heif: stripHeif,
  avif: stripHeif,
};

/** Whether uploads with this (lower-case) extension lose their privacy metadata. */
export function stripsMetadata(ext: string): boolean {
  return Object.hasOwn(strippers, ext);
}

/**
 * The image without the metadata that tells where, when and with what it was taken (GPS, device
 * make, model and serial, lens, software, every date, maker notes, thumbnails, XMP, IPTC,
 * comments), keeping what it needs to be shown right (orientation, colour profile) and its
 * copyright. The pixels are not decoded: their bytes are copied as they are, so the result is the
 * same for the same input every time. Answers `data` itself when there is nothing to remove.
 * Throws `MalformedImage` for an image whose structure cannot be read.
 */
export function stripMetadata(data: Buffer, ext: string): Buffer {
  const strip = strippers[ext];
  if (!strip) return data;
  let out: Buffer;
  try {
    out = strip(data);
  } catch (error) {
    if (error instanceof MalformedImage) throw error;
    // A read past the end that a check missed is a broken file too, never a crash.
    if (error instanceof RangeError) throw new MalformedImage('its structure is cut short');
    throw error;
  }
  return out.length === data.length && out.equals(data) ? data : out;
}
