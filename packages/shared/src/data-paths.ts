import { Limits } from './limits';

/** The four libraries of SPEC 7.3, as they appear in `/data/<library>/...`. */
type DataLibrary = 'image' | 'file' | 'video' | 'audio';

/**
 * Public addresses of stored files (DESIGN 6). Each upload gets one of its own,
 * `/data/<library>/<24 random hex>/<original name, sanitised>.<ext>`, never derived from its
 * content, so an address tells nobody what else is stored. Files uploaded before addresses were
 * random keep their content address, `/data/<library>/<sha256[0..2]>/<sha256>.<ext>`.
 */
const addressPattern =
  /^\/data\/(image|file|video|audio)\/([0-9a-f]{24})\/([^/\\\s\p{Cc}]{1,120})\.([a-z0-9]{1,10})$/u;
const contentAddressPattern =
  /^\/data\/(image|file|video|audio)\/([0-9a-f]{2})\/([0-9a-f]{64})\.([a-z0-9]{1,10})$/;

export interface DataPath {
  library: DataLibrary;
  ext: string;
  /** Set for a content address (an upload from before addresses were random). */
  sha256?: string;
}

/** The library and extension of a stored file's public path, or undefined for anything else. */
export function parseDataPath(path: string): DataPath | undefined {
  const random = addressPattern.exec(path);
  if (random) return { library: random[1] as DataLibrary, ext: random[4] ?? '' };
  const content = contentAddressPattern.exec(path);
  if (!content) return undefined;
  const [, library, prefix, sha256, ext] = content;
  if (!sha256 || !ext || sha256.slice(0, 2) !== prefix) return undefined;
  return { library: library as DataLibrary, ext, sha256 };
}

/** A stored image of the image library (avatars, room icons). */
export function isImageDataPath(path: string): boolean {
  const parsed = parseDataPath(path);
  return (
    parsed?.library === 'image' &&
    (Limits.imageExtensions as readonly string[]).includes(parsed.ext)
  );
}

/**
 * The thumbnail of a stored image: `/data/thumb/...` with `.webp` added (a content address swaps
 * its extension for `.webp`, as it always did).
 */
export function thumbnailOf(path: string): string {
  const parsed = parseDataPath(path);
  const thumb = path.replace(/^\/data\//, '/data/thumb/');
  return parsed?.sha256 ? thumb.replace(/\.[a-z0-9]+$/, '.webp') : `${thumb}.webp`;
}

/** The stored path a thumbnail address shows (a random address only; see `thumbnailOf`). */
export function thumbnailSource(thumb: string): string | undefined {
  if (!thumb.startsWith('/data/thumb/') || !thumb.endsWith('.webp')) return undefined;
  const path = `/data/${thumb.slice('/data/thumb/'.length, -'.webp'.length)}`;
  const parsed = parseDataPath(path);
  return parsed && !parsed.sha256 ? path : undefined;
}
