import { Limits } from '@atrium/shared/limits';

/** One library's upload limits, as the server's `config` action answers them (SPEC 3.6). */
export interface UploadRule {
  extensions: string[];
  maxSize: number;
}

/** The upload configuration (`dataUpload`, SPEC 3.6). */
export interface UploadConfig {
  chunkSize: number;
  /** Chunks our button sends at once (absent from servers that predate it). */
  parallelChunks?: number;
  category: Record<string, UploadRule>;
}

export type CheckFailure =
  { kind: 'type'; extensions: string[] } | { kind: 'size'; maxSize: number };

/** SPEC 9's own defaults: they apply only when no configuration is known at all. */
export const fallbackUploadRule: UploadRule = {
  extensions: [...Limits.uploaderDefaultExtensions],
  maxSize: Limits.uploaderDefaultMaxSize,
};

export function ruleFor(config: UploadConfig | undefined, category: string): UploadRule {
  if (!config) return fallbackUploadRule;
  return config.category[category] ?? { extensions: [], maxSize: 0 };
}

export function chunkSizeOf(config: UploadConfig | undefined): number {
  const size = config?.chunkSize;
  return size && size > 0 ? size : Limits.uploadChunkSize;
}

/** Lower-cased extension without the dot; empty when the name has none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** SPEC 5: extension in the library's list, size not above its maxSize. */
export function checkFile(
  file: { name: string; size: number },
  rule: UploadRule,
): CheckFailure | null {
  const allowed = rule.extensions.map((e) => e.toLowerCase());
  if (!allowed.includes(fileExtension(file.name)))
    return { kind: 'type', extensions: rule.extensions };
  if (file.size > rule.maxSize) return { kind: 'size', maxSize: rule.maxSize };
  return null;
}

/** The `accept` attribute of the file input, so the browser's dialog offers the allowed types first. */
export function acceptOf(rule: UploadRule): string {
  return rule.extensions.map((e) => `.${e}`).join(',');
}

/** Identity of a picked file for "the same file may not be queued twice" (SPEC 5). */
export function fileKey(file: { name: string; size: number; lastModified: number }): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

/** The server counts chunks as ceil(size / chunkSize) (DESIGN 6); an empty file still takes one. */
export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

export interface ChunkRange {
  index: number;
  start: number;
  end: number;
}

function chunkRange(size: number, chunkSize: number, index: number): ChunkRange {
  return { index, start: index * chunkSize, end: Math.min(size, (index + 1) * chunkSize) };
}

/** Chunks sent at once: the upload setting's, 1 to 8. */
export function parallelChunksOf(config: UploadConfig | undefined): number {
  const count = config?.parallelChunks;
  if (typeof count !== 'number' || !Number.isFinite(count) || count < 1)
    return Limits.uploadParallelChunks;
  return Math.min(8, Math.floor(count));
}

/**
 * The chunks still to send: the ranges init lists as missing when it lists them (chunks sent in
 * parallel may leave gaps), else every index from `chunkUploaded` on (SPEC 4.5 step 3).
 */
export function chunksToSend(
  size: number,
  chunkSize: number,
  chunkUploaded: number,
  missing?: readonly (readonly [number, number])[],
): ChunkRange[] {
  if (!missing) return pendingChunks(size, chunkSize, chunkUploaded);
  const total = chunkCount(size, chunkSize);
  const out: ChunkRange[] = [];
  for (const [from, to] of missing) {
    for (let index = Math.max(0, from); index < Math.min(to, total); index++) {
      out.push(chunkRange(size, chunkSize, index));
    }
  }
  return out;
}

/** The chunks still to send: every index from `chunkUploaded` on (SPEC 4.5 step 3). */
export function pendingChunks(
  size: number,
  chunkSize: number,
  chunkUploaded: number,
): ChunkRange[] {
  const total = chunkCount(size, chunkSize);
  const from = Math.min(Math.max(0, Math.floor(chunkUploaded)), total);
  const out: ChunkRange[] = [];
  for (let index = from; index < total; index++) out.push(chunkRange(size, chunkSize, index));
  return out;
}
