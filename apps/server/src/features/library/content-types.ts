/**
 * How uploaded files are served (DESIGN 9). Only these types render inline; everything else,
 * including html, svg, xml, js and pdf, is sent as an attachment.
 */
const inline: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  flac: 'audio/flac',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

const download: Record<string, string> = {
  pdf: 'application/pdf',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  xml: 'application/xml',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

export interface Presentation {
  contentType: string;
  /** True when a browser may show it in place; false means `Content-Disposition: attachment`. */
  inline: boolean;
}

export function presentationOf(ext: string): Presentation {
  const shown = inline[ext];
  if (shown) return { contentType: shown, inline: true };
  return { contentType: download[ext] ?? 'application/octet-stream', inline: false };
}

/** Blocks scripts, plugins and same-origin access even when a browser does render the file. */
export const uploadCsp = "default-src 'none'; sandbox";
