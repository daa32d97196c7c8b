import { z, type ZodType } from 'zod';

/**
 * Reads request schemas for the route walks, so a route added by any feature is covered by its
 * own schema: which fields a body has (nested objects and array elements included), and a body
 * the schema accepts to put one malformed value at a time into.
 */

export type FieldPath = (string | number)[];

/** The schema under wrappers that do not change a field's shape (optional, default, transforms). */
function inner(schema: ZodType): ZodType {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodPrefault
  ) {
    return inner(schema.unwrap() as ZodType);
  }
  if (schema instanceof z.ZodPipe) {
    // A transform's input is what the client sends.
    return inner(schema.in as ZodType);
  }
  return schema;
}

/** The objects a body may be: the object itself, or each option of a union of objects. */
export function variantsOf(schema: ZodType): z.ZodObject[] {
  const body = inner(schema);
  if (body instanceof z.ZodObject) return [body];
  if (body instanceof z.ZodUnion) {
    return (body.options as readonly ZodType[]).flatMap((option) => variantsOf(option));
  }
  return [];
}

/** Every field path of an object, depth first: `a`, `b`, `b.c`, `list`, `list.0.name`. */
export function fieldsOf(schema: ZodType, prefix: FieldPath = []): FieldPath[] {
  const shape = inner(schema);
  if (shape instanceof z.ZodObject) {
    return Object.entries(shape.shape as Record<string, ZodType>).flatMap(([key, field]) => [
      [...prefix, key],
      ...fieldsOf(field, [...prefix, key]),
    ]);
  }
  if (shape instanceof z.ZodArray) return fieldsOf(shape.element as ZodType, [...prefix, 0]);
  return [];
}

/** Text that passes most text fields: names, passwords (letters and digits), paths, addresses. */
const textCandidates = [
  'walk1.png',
  'walk_1234',
  'walker@example.com',
  'example.com',
  '123456',
  '2026-01-02',
  'd41d8cd98f00b204e9800998ecf8427e',
  'https://example.com/walk',
  `/data/image/ab/ab${'0'.repeat(62)}.png`,
  'code {code}',
  '{}',
  '',
];
/** The largest id first: a valid value at the top of an `integer` column's range. */
const numberCandidates = [2_147_483_647, 1, 0, 7, 30, 1024];

function first(schema: ZodType, candidates: readonly unknown[]): unknown {
  return candidates.find((value) => schema.safeParse(value).success);
}

/** A value `schema` accepts, or undefined when none of the candidates fits. */
export function sampleOf(schema: ZodType): unknown {
  if (schema instanceof z.ZodOptional) {
    const value = sampleOf(schema.unwrap() as ZodType);
    return schema.safeParse(value).success ? value : undefined;
  }
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) {
    const value = sampleOf(schema.unwrap() as ZodType);
    return schema.safeParse(value).success ? value : undefined;
  }
  if (schema instanceof z.ZodNullable) return sampleOf(schema.unwrap() as ZodType) ?? null;
  if (schema instanceof z.ZodLiteral) return [...schema.values][0];
  if (schema instanceof z.ZodEnum) return schema.options[0];
  if (schema instanceof z.ZodBoolean) return true;
  if (schema instanceof z.ZodString) return first(schema, textCandidates);
  if (schema instanceof z.ZodNumber) return first(schema, numberCandidates);
  if (schema instanceof z.ZodObject) {
    const value: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(schema.shape as Record<string, ZodType>)) {
      const sample = sampleOf(field);
      if (sample !== undefined) value[key] = sample;
    }
    return value;
  }
  if (schema instanceof z.ZodArray) {
    // One element, so the walk can reach the fields inside it.
    const one = [sampleOf(schema.element as ZodType)];
    return schema.safeParse(one).success ? one : [];
  }
  if (schema instanceof z.ZodUnion) {
    const options = (schema.options as readonly ZodType[]).map((option) => sampleOf(option));
    return first(schema, options);
  }
  if (schema instanceof z.ZodPipe) {
    const input = schema.in as ZodType;
    const candidates = [sampleOf(input), ...textCandidates, ...numberCandidates];
    return first(schema, candidates);
  }
  return undefined;
}

/** A copy of `body` with `value` at `path`; arrays on the way are grown to reach the index. */
export function withValue(body: unknown, path: FieldPath, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === 'number') {
    const list = Array.isArray(body) ? [...(body as unknown[])] : [];
    list[head] = withValue(list[head], rest, value);
    return list;
  }
  const object =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? { ...(body as Record<string, unknown>) }
      : {};
  object[head] = withValue(object[head], rest, value);
  return object;
}
