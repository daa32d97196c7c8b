import { randomBytes } from 'node:crypto';
import {
  defaultUploadConfig,
  librarySchema,
  maxFileNameBytes,
  uploadConfigSchema,
  type Library,
  type UploadConfig,
} from '@atrium/shared/contract/files';
import { fieldName, type MessageKey } from '@atrium/shared/messages/catalogue';
import { ApiError, message, type MessageRef } from '../../../http/envelope';
import { stripsMetadata } from './strip-metadata/index';

/** `ref` as a refusal about the body's `field` (its `data.field`). */
export function about(field: string, ref: MessageRef): MessageRef {
  return { ...ref, field };
}

/** Each library's name (its root category's), a catalogue message. */
export const libraryNames = {
  image: 'files.libraryImage',
  file: 'files.libraryFile',
  video: 'files.libraryVideo',
  audio: 'files.libraryAudio',
} as const satisfies Record<Library, MessageKey>;

export const libraryName = (library: Library): MessageRef => message(libraryNames[library]);

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
  if (typeof name !== 'string' || name.length === 0) {
    throw new ApiError(
      about('name', message('validation.required', { field: message('files.fileName') })),
    );
  }
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > maxFileNameBytes) {
    throw new ApiError(
      about('name', message('files.nameTooLong', { max: maxFileNameBytes, bytes })),
    );
  }
  if (hasControlCharacter(name))
    throw new ApiError(about('name', message('files.nameControlCharacters')));
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (!/^[a-z0-9]{1,10}$/.test(ext))
    throw new ApiError(about('name', message('files.nameNoExtension')));
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
    throw new ApiError(
      about('name', message('files.typeNotAllowed', { extensions: rules.extensions.join(',') })),
    );
  }
  if (size > rules.maxSize) throw new ApiError(about('size', message('files.sizeNotAllowed')));
}

const strictInteger = /^(0|[1-9][0-9]{0,14})$/;

/** A multipart number field: digits only, so "1.5", "-1", "0/../x" and "1e3" are refused. */
export function parseStrictInteger(field: string, value: unknown): number {
  if (typeof value !== 'string' || !strictInteger.test(value)) {
    throw new ApiError(about(field, message('files.digitsOnly', { field: fieldName(field) })));
  }
  return Number(value);
}

export function checkMd5(value: unknown): string {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{32}$/.test(value))
    throw new ApiError(about('md5', message('files.md5Format', { field: fieldName('md5') })));
  return value.toLowerCase();
}

/** A failure after which the upload button must start the file again (SPEC 4.5). */
export function retryUpload(reason: MessageRef, data: unknown = null): ApiError {
  return new ApiError(message('http.shouldRetryUpload', { reason }), undefined, data);
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
    super(message('http.shouldRetryUpload', { reason: message('files.noUploadInProgress') }));
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

/**
 * Largest image whose metadata is removed (it is read whole into memory to be rewritten): a
 * bigger one is refused at init by a library that does not keep originals.
 */
export const maxStrippedSize = 256 * 1024 * 1024;

/**
 * Whether an upload of this extension to this library is stored without its privacy metadata
 * (issue 17): true or false for the image formats that can be, undefined for the others.
 */
export function stripsIn(config: UploadConfig, library: Library, ext: string): boolean | undefined {
  if (!stripsMetadata(ext)) return undefined;
  return config.category[library].keepMetadata !== true;
}
