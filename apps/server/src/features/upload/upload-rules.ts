import { randomBytes } from 'node:crypto';
import {
  defaultUploadConfig,
  librarySchema,
  maxFileNameBytes,
  shouldRetryUpload,
  uploadConfigSchema,
  type Library,
  type UploadConfig,
} from '@atrium/shared/contract/files';
import { ApiError } from '../../http/envelope';

/** Where the admin-editable upload configuration is kept (DESIGN 6). */
export const uploadSettingKey = 'upload';

export interface SettingsReader {
  get(key: string): Promise<unknown>;
}

/**
 * The `upload` setting, or DESIGN 6's defaults when it is unset or broken. The chunk size is
 * raised to what the storage driver needs (S3 parts are at least 5 MiB).
 */
export async function loadUploadConfig(
  settings: SettingsReader | undefined,
  minChunkSize: number,
): Promise<UploadConfig> {
  const stored = settings
    ? uploadConfigSchema.safeParse(await settings.get(uploadSettingKey))
    : undefined;
  const config = stored?.success ? stored.data : defaultUploadConfig;
  return config.chunkSize >= minChunkSize ? config : { ...config, chunkSize: minChunkSize };
}

export function parseLibrary(value: unknown): Library | undefined {
  const parsed = librarySchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Control characters have no place in a display name; NUL would truncate it in C code. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Checks a display name (SPEC 3.6 `name`) and returns its lower-case extension. Characters such
 * as `../` are fine: a name never reaches a filesystem path.
 */
export function checkFileName(name: unknown): { name: string; ext: string } {
  if (typeof name !== 'string' || name.length === 0) throw new ApiError('name: is required');
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > maxFileNameBytes) {
    throw new ApiError(`name: at most ${maxFileNameBytes} bytes (UTF-8), this one has ${bytes}`);
  }
  if (hasControlCharacter(name))
    throw new ApiError('name: control characters such as NUL are not allowed');
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (!/^[a-z0-9]{1,10}$/.test(ext))
    throw new ApiError('name: needs a file extension such as .jpg');
  return { name, ext };
}

/** SPEC 5's messages, so the upload button shows the same text whichever side refused. */
export function checkAllowed(
  config: UploadConfig,
  library: Library,
  ext: string,
  size: number,
): void {
  const rules = config.category[library];
  if (!rules.extensions.includes(ext)) {
    throw new ApiError(`文件类型不合法（只能上传${rules.extensions.join(',')}文件）`);
  }
  if (size > rules.maxSize) throw new ApiError('文件大小不合法');
}

const strictInteger = /^(0|[1-9][0-9]{0,14})$/;

/** A multipart number field: digits only, so "1.5", "-1", "0/../x" and "1e3" are refused. */
export function parseStrictInteger(field: string, value: unknown): number {
  if (typeof value !== 'string' || !strictInteger.test(value)) {
    throw new ApiError(
      `${field}: expected a whole number written with digits only, got ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

export function checkMd5(value: unknown): string {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{32}$/.test(value))
    throw new ApiError('md5: expected 32 hex digits');
  return value.toLowerCase();
}

/** A failure after which the upload button must start the file again (SPEC 4.5). */
export function retryUpload(reason: string): ApiError {
  return new ApiError(`${reason} (${shouldRetryUpload})`);
}

/** What a chunk's fields say about its file and its place in it, checked. */
export interface ChunkOfFile {
  name: string;
  ext: string;
  md5: string;
  size: number;
  chunks: number;
  index: number;
}

/**
 * A chunk of a file with no upload session. Answered as `retryUpload` wherever it is not caught,
 * so the client starts over; the chunk route first asks whether the file was finished already.
 */
export class NoUploadInProgress extends ApiError {
  constructor(readonly chunk: ChunkOfFile) {
    super(`No upload in progress for this file: start it with init (${shouldRetryUpload})`);
  }
}

/** Longest name part of an address, in characters. */
const maxAddressName = 80;

/**
 * The original name as an address shows it: letters and digits of any script, `.`, `_` and `-`;
 * anything else (spaces, slashes, `%`, `#`, `?`) becomes `-`. Empty leaves `file`.
 */
export function addressName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = (dot > 0 ? name.slice(0, dot) : '').normalize('NFC');
  const safe = Array.from(
    base
      .replace(/[^\p{L}\p{N}\p{M}._-]+/gu, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|[-.]+$/g, ''),
  )
    .slice(0, maxAddressName)
    .join('')
    .replace(/[-.]+$/, '');
  return safe === '' ? 'file' : safe;
}

/**
 * A new public address of an upload (DESIGN 6): random, of its own, ending with the original name,
 * `/data/<library>/<24 hex>/<name>.<ext>`. The bytes stay content-addressed inside storage.
 */
export function newAddress(library: Library, name: string, ext: string): string {
  return `/data/${library}/${randomBytes(12).toString('hex')}/${addressName(name)}.${ext}`;
}
