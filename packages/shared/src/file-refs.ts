import { parseDataPath } from './data-paths';

/**
 * The places that hold a stored file's path (issue 17, "where used"). Each place records a
 * reference while it holds the path, in the same transaction that writes it.
 */
export const fileRefKinds = [
  'roomCover',
  'roomDescription',
  'roomIntroVideo',
  'roomIntroAudio',
  'roomDownload',
  'siteLogo',
  'siteFavicon',
  'siteBanner',
  'siteAbout',
  'memberAvatar',
  'adminAvatar',
  'chatImage',
  /** A document attached to a conversation as context (issue 18); the holder is the conversation. */
  'chatDocument',
] as const;
export type FileRefKind = (typeof fileRefKinds)[number];

/**
 * The stored file's path a field value names: the path itself, or an absolute address whose
 * path is one (a picker may hand out `fullPath`). Anything else (an outside link, '') names none.
 */
export function dataPathOf(value: string): string | undefined {
  const trimmed = value.trim();
  if (parseDataPath(trimmed)) return trimmed;
  const match = /^https?:\/\/[^/?#\s]+(\/data\/[^?#\s]+)(?:[?#].*)?$/i.exec(trimmed);
  if (!match?.[1]) return undefined;
  let path = match[1];
  try {
    path = decodeURI(path);
  } catch {
    return undefined;
  }
  return parseDataPath(path) ? path : undefined;
}

const attributePattern = /\s(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** The stored files' paths a rich text shows or links to (its `src` and `href` attributes). */
export function richTextDataPaths(html: string): string[] {
  const paths = new Set<string>();
  for (const match of html.matchAll(attributePattern)) {
    const raw = (match[1] ?? match[2] ?? match[3] ?? '').replace(/&amp;/g, '&');
    const path = dataPathOf(raw);
    if (path) paths.add(path);
  }
  return [...paths];
}

/** The distinct stored files' paths among field values. */
export function dataPathsOf(values: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const value of values) {
    const path = dataPathOf(value);
    if (path) paths.add(path);
  }
  return [...paths];
}

/** One reference a holder makes: which of its fields, and the path. */
export interface HeldPath {
  kind: FileRefKind;
  path: string;
}

const held = (kind: FileRefKind, values: readonly string[]): HeldPath[] =>
  dataPathsOf(values).map((path) => ({ kind, path }));

/** What a room holds: cover, images and links of its description, intro media, downloads. */
export function roomHeldPaths(room: {
  cover: string;
  description: string;
  introVideo: string;
  introAudio: string;
  downloads: readonly string[];
}): HeldPath[] {
  return [
    ...held('roomCover', [room.cover]),
    ...held('roomDescription', richTextDataPaths(room.description)),
    ...held('roomIntroVideo', [room.introVideo]),
    ...held('roomIntroAudio', [room.introAudio]),
    ...held('roomDownload', room.downloads),
  ];
}

/** What the site settings hold: logo, favicon, banners, and the about text's images and links. */
export function siteHeldPaths(site: {
  logo: string;
  favicon: string;
  banners: readonly string[];
  about: string;
}): HeldPath[] {
  return [
    ...held('siteLogo', [site.logo]),
    ...held('siteFavicon', [site.favicon]),
    ...held('siteBanner', site.banners),
    ...held('siteAbout', richTextDataPaths(site.about)),
  ];
}

/** The kinds of reference each place makes (what it replaces when it is saved again). */
export const roomRefKinds: readonly FileRefKind[] = [
  'roomCover',
  'roomDescription',
  'roomIntroVideo',
  'roomIntroAudio',
  'roomDownload',
];
export const siteRefKinds: readonly FileRefKind[] = [
  'siteLogo',
  'siteFavicon',
  'siteBanner',
  'siteAbout',
];
