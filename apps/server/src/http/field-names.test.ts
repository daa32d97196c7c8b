import { isMessageKey } from '@atrium/shared/messages/catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * A refusal names the field a person got wrong in words of their language (issue 27, point 3):
 * every field of every route's body has its name in the catalogue (`field.<key>`), so no refusal
 * falls back to the body's own key.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.cleanup();
});

/** The keys of an object schema and of the objects and arrays of objects inside it. */
function keysOf(schema: ZodType, into: Set<string>): Set<string> {
  if (schema instanceof z.ZodObject) {
    for (const [key, inner] of Object.entries(schema.shape as Record<string, ZodType>)) {
      into.add(key);
      keysOf(inner, into);
    }
  } else if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault
  ) {
    keysOf(schema.unwrap() as ZodType, into);
  } else if (schema instanceof z.ZodArray) {
    keysOf(schema.element as ZodType, into);
  } else if (schema instanceof z.ZodPipe) {
    keysOf(schema.in as ZodType, into);
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as ZodType[]) keysOf(option, into);
  }
  return into;
}

describe('field names', () => {
  it('every field of every route body has its name in both languages', () => {
    const missing = new Set<string>();
    for (const route of t.app.routeRegistry) {
      for (const key of keysOf(route.body, new Set()))
        if (!isMessageKey(`field.${key}`)) missing.add(`field.${key} (${route.path})`);
    }
    expect([...missing].sort()).toEqual([]);
  });
});
