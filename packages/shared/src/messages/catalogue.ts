import { account } from './account';
import { admin } from './admin';
import { adminAudit } from './admin-audit';
import { chat } from './chat';
import { common } from './common';
import { fields } from './fields';
import { files } from './files';
import {
  renderWith,
  type Language,
  type MessageRef,
  type ParamValue,
  type Placeholders,
  type Texts,
} from './render';
import { validation } from './validation';

/** The catalogue's parts, one per area; a key belongs to exactly one (the catalogue test). */
export const catalogueParts: Readonly<Record<string, Readonly<Record<string, Texts>>>> = {
  common,
  validation,
  fields,
  account,
  files,
  chat,
  admin,
  adminAudit,
};

/** Every message the server sends, by key (issue 27). */
export const catalogue = {
  ...common,
  ...validation,
  ...fields,
  ...account,
  ...files,
  ...chat,
  ...admin,
  ...adminAudit,
} as const;

type Catalogue = typeof catalogue;
export type MessageKey = keyof Catalogue;
export type FieldKey = Extract<MessageKey, `field.${string}`>;

/** The parameters a message takes: one per placeholder of its text. */
export type ParamsOf<K extends MessageKey> = {
  [P in Placeholders<Catalogue[K]['en']>]: ParamValue;
};

type ParamsArg<K extends MessageKey> = [Placeholders<Catalogue[K]['en']>] extends [never]
  ? []
  : [params: ParamsOf<K>];

/** A typed reference to a message: `message('validation.tooShort', {field, min: 3})`. */
export function message<K extends MessageKey>(key: K, ...params: ParamsArg<K>): MessageRef<K> {
  const [values] = params;
  return values ? { key, params: values as Record<string, ParamValue> } : { key };
}

export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(catalogue, key);
}

/**
 * A field's name as a message: the catalogue's `field.<path>` for the most specific end of the
 * path it has (`field.smtp.from` before `field.from`; list indexes skipped), else the path itself.
 */
export function fieldName(path: string): ParamValue {
  const segments = path.split('.').filter((segment) => !/^\d+$/.test(segment));
  for (let start = 0; start < segments.length; start++) {
    const key = `field.${segments.slice(start).join('.')}`;
    if (isMessageKey(key)) return { key };
  }
  return path;
}

/** `ref` in `lang`. */
export function render(lang: Language, ref: MessageRef): string {
  return renderWith(catalogue, lang, ref);
}

export {
  defaultLanguage,
  isLanguage,
  languageHeader,
  languages,
  pickLanguage,
  placeholdersOf,
  type Language,
  type MessageRef,
  type ParamValue,
  type Texts,
} from './render';
