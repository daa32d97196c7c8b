import { Code } from '@atrium/shared';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { describeZodError } from '../http/errors';
import type { RouteRecord } from '../http/route';
import { fieldsOf, sampleOf, variantsOf, withValue, type FieldPath } from './schema-sample';

/**
 * The malformed-value walks of the route tests: which values, where each goes in a body, and what
 * an answer to one must be. `route-malformed.test.ts` puts every value in every field of every
 * route's schema, and sends them all through the generic route code on routes of each body shape;
 * `routes.test.ts` sends each real route one refused body and every body its schema lets through.
 */

/**
 * A malformed value: `raw` is JSON text no JavaScript value prints as (a number past 2^53 keeps
 * its digits; 1e400 parses to Infinity). `refused`: every schema must refuse it, wherever it is.
 */
export interface Malformed {
  name: string;
  value?: unknown;
  raw?: string;
  refused: boolean;
}

export const malformedValues: Malformed[] = [
  { name: 'text with NUL', value: 'a\u0000b', refused: true },
  { name: 'text with a lone surrogate', value: 'a\ud800b', refused: true },
  { name: 'an array of text with NUL', value: ['a\u0000b'], refused: true },
  { name: '2^31', value: 2_147_483_648, refused: false },
  { name: '-2^31 - 1', value: -2_147_483_649, refused: false },
  { name: '-1', value: -1, refused: false },
  { name: '1.5', value: 1.5, refused: false },
  { name: '1e300', value: 1e300, refused: true },
  { name: '2^53 + 1', raw: '9007199254740993', refused: true },
  { name: '1e400', raw: '1e400', refused: true },
  { name: '"NaN"', value: 'NaN', refused: false },
  { name: '"Infinity"', value: 'Infinity', refused: false },
  { name: '"2147483648"', value: '2147483648', refused: false },
  { name: 'null', value: null, refused: false },
  { name: 'a nested object', value: { a: { b: { c: 'a\u0000b' } } }, refused: false },
  {
    name: 'a huge array',
    value: Array.from({ length: 20_000 }, () => 2_147_483_648),
    refused: false,
  },
];

/** Stands in for a `raw` value until the body is JSON text. */
const rawMarker = 'raw-value-9f3c';

/** One route and one shape of its body: the file manager has one per `action`. */
export interface Target {
  route: RouteRecord;
  label: string;
  variant: z.ZodObject;
  base: unknown;
}

/** Every shape of every route's body, each with a body its schema accepts to start from. */
export function targetsOf(routes: readonly RouteRecord[]): Target[] {
  return routes.flatMap((r) =>
    variantsOf(r.body).map((variant) => {
      const action = variant.shape.action;
      const label =
        action instanceof z.ZodLiteral ? `${r.path} ${String([...action.values][0])}` : r.path;
      return { route: r, label, variant, base: sampleOf(variant) };
    }),
  );
}

/** One malformed value in one field of a target's body. */
export interface Probe {
  target: Target;
  path: FieldPath;
  bad: Malformed;
  /** The body as the server reads it back from the JSON text sent. */
  body: unknown;
  /** Whether the route's schema refuses it (else the handler receives it). */
  refused: boolean;
  /** Why, when it does. */
  error?: z.ZodError;
  /** Where it went, for messages: `<route> [action] <field path>`. */
  where: string;
}

/** The JSON text of a probe's body: `raw` values as their own text. */
export function payloadOf(probe: Probe): string {
  const { bad, path, target } = probe;
  if (bad.raw === undefined) return JSON.stringify(probe.body);
  const text = JSON.stringify(withValue(target.base, path, rawMarker));
  return text.replace(JSON.stringify(rawMarker), bad.raw);
}

/** Every malformed value in every field of `target` (or the values given), one at a time. */
export function* probes(
  target: Target,
  values: readonly Malformed[] = malformedValues,
): Generator<Probe> {
  for (const path of fieldsOf(target.variant)) {
    for (const bad of values) {
      // A value without raw JSON text reads back as itself: no need to print and parse it.
      const body =
        bad.raw === undefined
          ? withValue(target.base, path, bad.value)
          : (JSON.parse(
              JSON.stringify(withValue(target.base, path, rawMarker)).replace(
                JSON.stringify(rawMarker),
                bad.raw,
              ),
            ) as unknown);
      const parsed = target.route.body.safeParse(body);
      const where = `${target.label} ${path.join('.')}`;
      yield parsed.success
        ? { target, path, bad, body, refused: false, where }
        : { target, path, bad, body, refused: true, error: parsed.error, where };
    }
  }
}

/** The first malformed body `target`'s schema refuses (none when its body has no field). */
export function firstRefused(target: Target): Probe | undefined {
  for (const probe of probes(target)) if (probe.refused) return probe;
  return undefined;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A refusal's `data.field`: the field's dotted path, or a field inside it. */
export function namesField(path: FieldPath): RegExp {
  const dotted = escapeRegex(path.join('.'));
  return new RegExp(`^${dotted}([.,][\\w.]*)?$`);
}

/**
 * The field the error handler names for a refused probe: the route's schema error, described by
 * the same function the handler's validation answer is built with.
 */
export function refusedField(probe: Probe): string | undefined {
  return probe.error ? describeZodError(probe.error, probe.body).field : undefined;
}

/** Codes of a body the schema takes: handled, refused by the service, captcha or rate limit. */
const handledCodes: number[] = [
  Code.Success,
  Code.Failure,
  Code.CaptchaWrong,
  Code.TooManyRequests,
];

/** Public routes that ask a visitor to sign in for some records: a share link not made public. */
export const signInForSome = new Set(['/api/aigc/share/view']);

/** What one malformed body gets: refused naming the field, or handled without a crash. */
export function expectAnswer(
  res: LightMyRequestResponse,
  refused: boolean,
  path: FieldPath,
  where: string,
  signIn = false,
): void {
  expect.soft(res.statusCode, where).toBe(200);
  const answer = res.json<{
    code: number;
    msg: string;
    data: { error?: string; field?: string };
  }>();
  if (!refused) {
    const handled = signIn ? [...handledCodes, Code.NotLoggedIn] : handledCodes;
    expect.soft(handled, `${where}: ${answer.msg}`).toContain(answer.code);
    return;
  }
  expect.soft(answer.code, `${where}: ${answer.msg}`).toBe(Code.Failure);
  // A body over the route's size limit is refused before it is read at all.
  if (answer.data.error !== 'http.bodyTooLarge') {
    expect.soft(answer.data.field ?? '(none)', `${where}: ${answer.msg}`).toMatch(namesField(path));
  }
}
