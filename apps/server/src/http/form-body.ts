import { z, type ZodType } from 'zod';

/**
 * An `application/x-www-form-urlencoded` body, kept as its strings until the call it is for is
 * known: only then can each value take the type its field declares (`formValues`).
 */
export class FormBody {
  constructor(readonly fields: Record<string, string | string[]>) {}
}

/**
 * Reads a form body as jQuery sends it: `name=value` pairs, a list as `id[]=1&id[]=2` (a field
 * repeated without `[]` is a list too, which a single-valued field then refuses).
 */
export function parseFormBody(text: string): FormBody {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<
    string,
    string | string[]
  >;
  for (const [rawName, value] of new URLSearchParams(text)) {
    const isList = rawName.endsWith('[]');
    const name = isList ? rawName.slice(0, -2) : rawName;
    const held = fields[name];
    if (held === undefined) fields[name] = isList ? [value] : value;
    else fields[name] = [...(Array.isArray(held) ? held : [held]), value];
  }
  return new FormBody(fields);
}

const numberForm = /^-?\d{1,16}(\.\d{1,16})?$/;
const booleanForms: Record<string, boolean> = { true: true, false: false, 1: true, 0: false };

/** What a form string may stand for: itself, then the number or boolean it spells. */
function readings(text: string): unknown[] {
  const found: unknown[] = [text];
  if (numberForm.test(text)) found.push(Number(text));
  if (text in booleanForms) found.push(booleanForms[text]);
  return found;
}

function listReadings(texts: string[]): unknown[] {
  const found: unknown[] = [texts];
  if (texts.every((text) => numberForm.test(text))) found.push(texts.map(Number));
  return found;
}

/**
 * The form's values as the fields of `schema` take them: a value becomes the number or boolean
 * its string spells only where its field accepts that and not the string itself, so the schema
 * stays exactly as strict as with JSON (a value no reading satisfies keeps the reading the
 * schema's own message is about).
 */
export function formValues(schema: ZodType, form: FormBody): Record<string, unknown> {
  const shape: Record<string, ZodType> = schema instanceof z.ZodObject ? schema.shape : {};
  const values: Record<string, unknown> = {};
  for (const [name, sent] of Object.entries(form.fields)) {
    const field = Object.hasOwn(shape, name) ? shape[name] : undefined;
    const candidates = Array.isArray(sent) ? listReadings(sent) : readings(sent);
    values[name] = field ? bestReading(field, candidates) : candidates[0];
  }
  return values;
}

const typeMismatches = new Set(['invalid_type', 'invalid_union']);

/**
 * The reading the field takes; else the one of its type (so `-1` gets JSON's "at least 0", not
 * "not valid"); else the value as sent.
 */
function bestReading(field: ZodType, candidates: unknown[]): unknown {
  let ofItsType: { value: unknown } | undefined;
  for (const value of candidates) {
    const parsed = field.safeParse(value);
    if (parsed.success) return value;
    const code = parsed.error.issues[0]?.code;
    if (!ofItsType && code !== undefined && !typeMismatches.has(code)) ofItsType = { value };
  }
  return ofItsType ? ofItsType.value : candidates[0];
}
